import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { confirmSubscription } from "~/services/newsletter.server";

export const meta: MetaFunction = () => [{ title: "Newsletter | Printnear" }];

// GET /newsletter/confirm?token=: the link of the confirmation e-mail (double opt-in).
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { confirmed: await confirmSubscription(token.slice(0, 100)) };
}

export default function NewsletterConfirm() {
  const { confirmed } = useLoaderData<typeof loader>();
  return (
    <div className="container-page max-w-xl py-16 text-center">
      <h1 className="text-2xl font-bold">{confirmed ? "Subscription confirmed" : "Link not valid"}</h1>
      <p className="mt-3 text-slate-600">
        {confirmed
          ? "Thank you! You will receive the Printnear newsletter."
          : "This confirmation link is not valid. Please subscribe again from the form at the bottom of any page."}
      </p>
      <Link to="/" className="mt-6 inline-block text-blue-700 hover:underline">
        Back to Printnear
      </Link>
    </div>
  );
}
