// Imported first by ./main.ts, so that it runs before the other modules are evaluated.
//
// Keeps V8's young generation at its initial size. Loading modules, the index and the manifest
// makes many objects that survive, and V8 answers a high survival rate by doubling the young
// generation up to 2 × 64 MB, which it then keeps for good: at 100,000 episodes that was 128 MB of
// the process's ~345 MB resident after start. Set here rather than when the handler is created,
// it also keeps the modules' loading from growing it to 16 MB. Requests allocate short-lived
// objects, which a small young generation collects just as well (measured in
// docs/performance.md#request-path-at-scale). Process-wide and settable at run time (the
// semi-space size limits are not).
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--semi-space-growth-factor=1");
