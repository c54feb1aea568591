// Imported first by ./own-process.ts, so that it runs before the server's modules are evaluated.
//
// Keeps V8's young generation at its initial size. Loading modules, the index and the manifest
// makes many objects that survive, and V8 answers a high survival rate by growing the young
// generation to its maximum, which it then keeps for good: a large share of the process's memory.
// Set this early, it also holds while the modules load. Requests allocate short-lived objects,
// which a small young generation collects just as well (docs/performance.md). Process-wide and
// settable at run time (the semi-space size limits are not).
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--semi-space-growth-factor=1");
