// Domain modules that add CLI commands register them here (see extraCommands).
import "@/lib/rules/cli";
import "@/lib/webhooks/cli";
import "@/lib/sanctions/cli";
import "@/lib/fx/cli";
import "@/lib/lists/cli";
import "@/lib/retention/cli";
