interface AvatarUser {
  firstName?: string | null;
  lastName?: string | null;
  username?: string | null;
  email?: string | null;
  profileImageUrl?: string | null;
}

/** First name, else username, else e-mail initial, plus the last name's initial; 'U' when nothing exists. */
export function initialsOf(user: AvatarUser | null | undefined): string {
  const first = (user?.firstName || user?.username || user?.email || "").trim().charAt(0);
  const last = (user?.lastName || "").trim().charAt(0);
  const initials = `${first}${last}`.toUpperCase();
  return initials || "U";
}

export function UserAvatar({ user, size = 32 }: { user: AvatarUser; size?: number }) {
  if (user.profileImageUrl) {
    return (
      <img
        src={user.profileImageUrl}
        alt=""
        width={size}
        height={size}
        className="rounded-full object-cover"
        style={{ width: size, height: size }}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="inline-flex items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-700"
      style={{ width: size, height: size }}
    >
      {initialsOf(user)}
    </span>
  );
}
