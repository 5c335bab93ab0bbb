import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createAppRouter } from "./app/router";
import { Toaster } from "./components/ui/toast";
import { queryClient } from "./lib/query-client";
import { setTwoFactorNavigation } from "./lib/two-factor-required";
import "./styles.css";

const router = createAppRouter(queryClient);
setTwoFactorNavigation((href) => void router.navigate({ href }));

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>
  </StrictMode>,
);
