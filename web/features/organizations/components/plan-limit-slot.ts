import type { ReactNode } from "react";

/**
 * What the organization's plan allows for something these pages create (members, teams). Plans belong to the
 * billing feature, which this one does not import: web/app reads the limit there and passes it in.
 * - `usage`: a line saying how much is used ("Seats: 3 of 5").
 * - `locked`: once the limit is reached, shown instead of the create form's submit button.
 * Absent (no plan data yet, or none to show), the pages behave as without plans; the server still refuses with
 * PLAN_LIMIT_REACHED, which the forms word for people.
 */
export type PlanLimitSlot = { usage?: ReactNode; locked?: ReactNode };
