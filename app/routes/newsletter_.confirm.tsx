import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { Link } from "~/components/link";
import { confirmSubscription } from "~/services/newsletter.server";

export const meta: MetaFunction = () => [{ title: "Newsletter | Printnear" }];

const tokenOf = (request: Request) => (new URL(request.url).searchParams.get("token") ?? "").slice(0, 100);

// The trailing _ of the file name keeps this page out of newsletter.tsx, whose loader sends every GET home.

// GET /newsletter/confirm?token=: the link of the confirmation e-mail (double opt-in) shows a
// Confirm button; a GET changes nothing, so mail scanners that open links confirm no one.
export async function loader({ request }: LoaderFunctionArgs) {
  return { token: tokenOf(request) };
}

// POST /newsletter/confirm?token=: the button confirms the subscription.
export async function action({ request }: ActionFunctionArgs) {
  return { confirmed: await confirmSubscription(tokenOf(request)) };
}

export default function NewsletterConfirm() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (result) {
    return (
      <div className="container-page max-w-xl py-16 text-center">
        <h1 className="text-2xl font-bold">{result.confirmed ? "Subscription confirmed" : "Link not valid"}</h1>
        <p className="mt-3 text-slate-600">
          {result.confirmed
            ? "Thank you! You will receive the Printnear newsletter."
            : "This confirmation link is not valid. Please subscribe again from the form at the bottom of any page."}
        </p>
        <Link to="/" className="mt-6 inline-block text-blue-700 hover:underline">
          Back to Printnear
        </Link>
      </div>
    );
  }
  return (
    <div className="container-page max-w-xl py-16 text-center">
      <h1 className="text-2xl font-bold">Confirm your subscription</h1>
      <p className="mt-3 text-slate-600">One click and you will receive the Printnear newsletter.</p>
      <Form method="post" action={`/newsletter/confirm?token=${encodeURIComponent(token)}`} className="mt-6">
        <button className="rounded bg-blue-600 px-4 py-2 font-medium text-white hover:bg-blue-700">Confirm</button>
      </Form>
    </div>
  );
}
