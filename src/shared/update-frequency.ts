// The release schedules podcast.json's `updateFrequency` may name (README.md#content-format): each
// is the feed's `podcast:updateFrequency` tag (functions/routes/feed.ts), an iCalendar recurrence rule
// (RFC 5545 §3.3.10) for apps and a label for people, as the Podcasting 2.0 namespace defines it.
// The names follow Apple Podcasts Connect's own schedule choices. Portable.

export interface UpdateFrequency {
  /** The `rrule` attribute. */
  rrule: string;
  /** The node's text, shown beside the show by the apps that display it. */
  label: string;
}

export const UPDATE_FREQUENCIES = {
  daily: { rrule: "FREQ=DAILY", label: "Daily" },
  weekdays: { rrule: "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", label: "Every weekday" },
  weekly: { rrule: "FREQ=WEEKLY", label: "Weekly" },
  biweekly: { rrule: "FREQ=WEEKLY;INTERVAL=2", label: "Biweekly" },
  monthly: { rrule: "FREQ=MONTHLY", label: "Monthly" },
  bimonthly: { rrule: "FREQ=MONTHLY;INTERVAL=2", label: "Bimonthly" },
  yearly: { rrule: "FREQ=YEARLY", label: "Yearly" },
} as const satisfies Record<string, UpdateFrequency>;

export type UpdateFrequencyName = keyof typeof UPDATE_FREQUENCIES;

export const UPDATE_FREQUENCY_NAMES = Object.keys(UPDATE_FREQUENCIES) as [UpdateFrequencyName, ...UpdateFrequencyName[]];
