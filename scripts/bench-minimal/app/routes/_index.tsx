import { useLoaderData } from "react-router";

export function loader() {
  return { greeting: "Hello from a minimal React Router page" };
}

export default function Index() {
  const { greeting } = useLoaderData<typeof loader>();
  return <h1>{greeting}</h1>;
}
