import { launch } from "./launch";

await launch("start");
