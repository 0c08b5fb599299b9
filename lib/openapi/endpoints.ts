// The list of documented endpoints: each domain's endpoints module registers itself on import.
import "@/lib/rules/endpoints";
import "@/lib/webhooks/endpoints";
import "@/lib/screening/endpoints";
import "@/lib/transactions/endpoints";
import "@/lib/users/endpoints";
import "@/lib/links/endpoints";
import "@/lib/comments/endpoints";
import "@/lib/reports/endpoints";
import "@/lib/cases/endpoints";
