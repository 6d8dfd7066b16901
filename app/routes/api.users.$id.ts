import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, idParam, methodNotAllowed, publicUser, readJson, requireApiUser } from "~/utils/api.server";
import { isAppError, withApiErrors } from "~/utils/app-error.server";
import { ApiUserPatchSchema, checkUserTypeChange, emailOffAfter, updateUser } from "~/services/accounts/profile.server";

// PATCH /api/users/{id}: userType (only what the account may choose, see app/domain/users.ts), or username/firstName/lastName/profileImageUrl; only one's own.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed("GET, PATCH");
  const user = await requireApiUser(request);
  if (idParam(params.id) !== user.id) return apiError(403, "You can only change your own account.");
  const parsed = ApiUserPatchSchema.safeParse(await readJson(request));
  if (!parsed.success) {
    const errors = parsed.error.flatten().fieldErrors;
    return Response.json({ message: Object.values(errors).flat()[0] ?? "Invalid input", errors }, { status: 400 });
  }
  const { emailSettings, ...fields } = parsed.data;
  return withApiErrors(async () => {
    await checkUserTypeChange(user, fields.userType);
    try {
      const changed = await updateUser(user.id, {
        ...fields,
        ...(emailSettings ? { emailOff: emailOffAfter(user.emailOff, emailSettings) } : {}),
      });
      return Response.json(publicUser(changed));
    } catch (error) {
      // a taken username names its field, as a refused body does
      if (isAppError(error) && error.code === "conflict" && error.field) {
        return Response.json({ message: error.message, errors: { [error.field]: [error.message] } }, { status: 409 });
      }
      throw error;
    }
  });
}

export async function loader() {
  return apiError(404, "Not found");
}
