import { useLoaderData } from "@remix-run/react";

export function loader() {
  return { greeting: "Hello from a minimal Remix page" };
}

export default function Index() {
  const { greeting } = useLoaderData<typeof loader>();
  return <h1>{greeting}</h1>;
}
