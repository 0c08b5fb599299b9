// Runs in the browser before the app's own modules. Zod probes for eval (`Function("")`) to compile
// fast parsers; under the dashboard's CSP (no 'unsafe-eval') that probe is a reported violation, so
// the browser's zod runs without it. The server keeps its compiled parsers.
import { z } from "zod";

z.config({ jitless: true });
