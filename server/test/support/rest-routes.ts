// The REST route table, as the REST adapter builds it from the operation catalogue (the server builds
// its own in http/app.ts; the catalogue itself does not import the adapter's code).
import { restTable } from "@adgen/rest-adapter";
import { operations } from "../../src/operations/catalogue.ts";

export const restRoutes = restTable(operations);
