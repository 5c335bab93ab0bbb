import { useQuery } from "@tanstack/react-query";
import { organizationQuery } from "../../features/organizations/api/organizations";
import { useDocumentTitle } from "../document-title";

/**
 * A settings tab's title: "Members · Acme · Atrium" (the organization's name from the layout's query). Its own
 * module, loaded with each tab's page (routes/organizations.tsx), so the route definitions carry no query code.
 */
export function useSettingsTitle(tab: string, organizationId: string) {
  useDocumentTitle(tab, useQuery(organizationQuery(organizationId)).data?.name);
}
