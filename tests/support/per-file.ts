// Run before each test file. Test files share their worker process and its modules (vitest.config.ts:
// `isolate: false`), so module state a file starts from is reset here to what a process of its own
// would give it.
import { resetFixtureCounter } from "./fixture.ts";

resetFixtureCounter();
