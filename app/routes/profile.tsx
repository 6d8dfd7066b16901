import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Form } from "~/components/form";
import { ErrorList, Field } from "~/components/forms";
import { FailureToast } from "~/components/toaster";
import { UserAvatar } from "~/components/user-avatar";
import { humanize } from "~/domain/format";
import { isAppError } from "~/domain/app-error";
import { NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS, wantsEmail } from "~/domain/notification-kinds";
import { replyWithError } from "~/utils/app-error.server";
import { emailOffFrom, PRESET_AVATARS, ProfileSchema } from "~/domain/profile";
import { updateUser } from "~/services/accounts/profile.server";
import { requireUser } from "~/utils/session.server";
import { AddressBook } from "~/components/address-book";
import { addressLines } from "~/domain/address";
import { addressOf, listAddresses } from "~/services/addresses.server";
import { ADDRESS_INTENTS, addressBookAction } from "./profile-addresses.server";
import { redirectWithToast } from "~/utils/toast.server";
import { resultForIntent } from "~/utils/misc";
import { useIsPending } from "~/utils/misc-react";

export const meta: MetaFunction = () => [{ title: "Profile | Printnear" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const saved = await listAddresses(user.id);
  return {
    addresses: saved.map((a) => ({
      id: a.id,
      name: a.name,
      line1: a.line1,
      line2: a.line2 ?? "",
      city: a.city,
      state: a.state,
      zip: a.zip,
      phone: a.phone ?? "",
      isDefault: a.isDefault,
      lines: addressLines(addressOf(a), { phone: true }),
    })),
    avatars: PRESET_AVATARS,
    profile: {
      email: user.email,
      username: user.username,
      firstName: user.firstName ?? "",
      lastName: user.lastName ?? "",
      profileImageUrl: user.profileImageUrl ?? "",
      zipCode: user.zipCode ?? "",
      userType: user.userType,
      emailOn: NOTIFICATION_KINDS.filter((kind) => wantsEmail(user.emailOff, kind)),
    },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  if ((ADDRESS_INTENTS as readonly string[]).includes(intent)) return addressBookAction(user.id, intent, form);
  const submission = parseWithZod(form, { schema: ProfileSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { emailOn, ...fields } = submission.value;
  try {
    await updateUser(user.id, { ...fields, emailOff: emailOffFrom(emailOn) });
  } catch (error) {
    if (isAppError(error)) return replyWithError(submission, error);
    throw error;
  }
  return redirectWithToast("/profile", { title: "Profile Updated", description: "Your profile changes are saved." });
}

export default function Profile() {
  const { profile, avatars, addresses } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // one action answers the profile form and the address book's; a refused address save carries its intent
  const addressResult = resultForIntent(actionData?.result, "address-save");
  const lastResult = addressResult ? undefined : actionData?.result;
  const saving = useIsPending({ state: "submitting" });
  // The server's rules are the real ones; the browser only checks early.
  const [form, fields] = useForm({
    id: "profile",
    lastResult,
    defaultValue: profile,
    constraint: getZodConstraint(ProfileSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
    shouldRevalidate: "onBlur",
  });
  const failed = Object.keys(form.allErrors).length > 0;
  const formErrors = form.errors?.length ? form.errors : ["Check the fields marked below."];
  return (
    <div className="container-page max-w-2xl py-8">
      {/* a refused save is also raised as a destructive toast; the fields keep what was typed */}
      {failed ? <FailureToast title="Update Failed" description={formErrors[0]!} /> : null}
      <h1 className="text-2xl font-bold">Profile Settings</h1>
      <Form method="post" {...getFormProps(form)} className="card mt-6 space-y-5 p-6">
        {failed ? (
          <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            <p className="font-semibold">Update Failed</p>
            <ErrorList id={form.errorId} errors={formErrors} />
          </div>
        ) : null}
        <div className="flex items-center gap-4">
          <UserAvatar user={profile} size={56} />
          <div>
            <p className="font-medium">{profile.email}</p>
            <p className="text-sm text-slate-500">Account type: {humanize(profile.userType)}</p>
          </div>
        </div>
        <Field
          labelProps={{ children: "Email" }}
          inputProps={{ id: "email", className: "input bg-slate-50", value: profile.email, readOnly: true }}
          help="Email cannot be changed."
        />
        <Field
          labelProps={{ children: "Username" }}
          inputProps={getInputProps(fields.username, { type: "text" })}
          errors={fields.username.errors}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            labelProps={{ children: "First name" }}
            inputProps={getInputProps(fields.firstName, { type: "text" })}
            errors={fields.firstName.errors}
          />
          <Field
            labelProps={{ children: "Last name" }}
            inputProps={getInputProps(fields.lastName, { type: "text" })}
            errors={fields.lastName.errors}
          />
        </div>
        <Field
          labelProps={{ children: "ZIP code (finds printers near you)" }}
          inputProps={{ ...getInputProps(fields.zipCode, { type: "text" }), inputMode: "numeric", maxLength: 5 }}
          errors={fields.zipCode.errors}
        />
        <fieldset>
          <legend className="label">Avatar</legend>
          <div className="flex flex-wrap gap-3">
            <label className="flex cursor-pointer flex-col items-center gap-1 text-xs">
              <input type="radio" name={fields.profileImageUrl.name} value="" defaultChecked={!profile.profileImageUrl} />
              <UserAvatar user={{ ...profile, profileImageUrl: null }} size={40} />
              Initials
            </label>
            {avatars.map((src, i) => (
              <label key={src} className="flex cursor-pointer flex-col items-center gap-1 text-xs">
                <input
                  type="radio"
                  name={fields.profileImageUrl.name}
                  value={src}
                  defaultChecked={profile.profileImageUrl === src}
                />
                <img src={src} alt={`Avatar ${i + 1}`} width={40} height={40} />
              </label>
            ))}
          </div>
          <ErrorList id={fields.profileImageUrl.errorId} errors={fields.profileImageUrl.errors} />
        </fieldset>
        <fieldset id="email-settings">
          <legend className="label">E-mail me about</legend>
          <p className="mb-2 text-xs text-slate-500">The bell always shows everything; these choose what also comes by e-mail.</p>
          <div className="flex flex-col gap-2">
            {NOTIFICATION_KINDS.map((kind) => (
              <label key={kind} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  name={fields.emailOn.name}
                  value={kind}
                  defaultChecked={profile.emailOn.includes(kind)}
                  className="mt-0.5"
                />
                {NOTIFICATION_KIND_LABELS[kind]}
              </label>
            ))}
          </div>
        </fieldset>
        <button className="btn-primary" disabled={saving}>
          {saving ? "Saving..." : "Save Changes"}
        </button>
      </Form>
      <AddressBook addresses={addresses} lastResult={addressResult} />
    </div>
  );
}
