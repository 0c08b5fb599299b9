import { it } from "vitest";
import { runAdminBench } from "./admin-pages";

it("admin page data loads at volume", runAdminBench);
