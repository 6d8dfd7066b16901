import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { NavLink } from "~/components/link";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireAdmin } from "~/utils/admin.server";

// Every /admin page: each child loader and action checks the admin again (actions skip this loader).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return null;
}

const LINKS = [
  { to: "/admin", label: "Overview", end: true },
  { to: "/admin/orders", label: "Orders", end: false },
  { to: "/admin/claims", label: "Claims", end: false },
  { to: "/admin/jobs", label: "Jobs", end: false },
  { to: "/admin/import", label: "Thingiverse Import", end: false },
  { to: "/admin/newsletter", label: "Newsletter", end: false },
];

export default function AdminLayout() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <nav aria-label="Admin" className="mb-6 flex flex-wrap gap-2 border-b border-slate-200 pb-3">
        {LINKS.map((link) => (
          <NavLink
            key={link.to}
            to={link.to}
            end={link.end}
            className={({ isActive }) =>
              `rounded px-3 py-1.5 text-sm ${isActive ? "bg-blue-600 text-white" : "text-slate-700 hover:bg-slate-100"}`
            }
          >
            {link.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
