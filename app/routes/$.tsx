// Every unknown path: a real 404 status, shown by the root error boundary.
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}

export const meta = () => [{ title: "Page not found | Printnear" }];
