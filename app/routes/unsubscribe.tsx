import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { unsubscribe } from "~/services/newsletter.server";

export const meta: MetaFunction = () => [{ title: "Unsubscribe | Printnear" }];

const tokenOf = (request: Request) => (new URL(request.url).searchParams.get("token") ?? "").slice(0, 100);

export async function loader({ request }: LoaderFunctionArgs) {
  return { token: tokenOf(request) };
}

// POST /unsubscribe?token=: the page's one button, and mail programs' one-click List-Unsubscribe-Post.
export async function action({ request }: ActionFunctionArgs) {
  const done = await unsubscribe(tokenOf(request));
  if (request.headers.get("content-type")?.includes("application/x-www-form-urlencoded")) {
    const form = await request.formData();
    if (form.get("List-Unsubscribe") === "One-Click") return new Response(null, { status: done ? 200 : 404 });
  }
  return { done };
}

export default function Unsubscribe() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (result) {
    return (
      <div className="container-page max-w-xl py-16 text-center">
        <h1 className="text-2xl font-bold">{result.done ? "You are unsubscribed" : "Link not valid"}</h1>
        <p className="mt-3 text-slate-600">
          {result.done ? "You will not receive the Printnear newsletter any more." : "This unsubscribe link is not valid."}
        </p>
        <Link to="/" className="mt-6 inline-block text-blue-700 hover:underline">
          Back to Printnear
        </Link>
      </div>
    );
  }
  return (
    <div className="container-page max-w-xl py-16 text-center">
      <h1 className="text-2xl font-bold">Unsubscribe from the newsletter</h1>
      <p className="mt-3 text-slate-600">One click and you will receive no more newsletters from Printnear.</p>
      <Form method="post" action={`/unsubscribe?token=${encodeURIComponent(token)}`} className="mt-6">
        <button className="rounded bg-blue-600 px-4 py-2 font-medium text-white hover:bg-blue-700">Unsubscribe</button>
      </Form>
    </div>
  );
}
