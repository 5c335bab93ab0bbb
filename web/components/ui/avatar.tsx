import { useState } from "react";
import { cn } from "../../lib/cn";

const graphemes = new Intl.Segmenter();

/**
 * A round picture, or the person's initials when there is none or it fails to load. It is decorative: whatever holds
 * it names the person. The initials are drawn by CSS (`content: attr(data-initials)`), not written as text, so they
 * are a picture of the name like the photo is: a button holding an avatar ("Account menu for Ada Lovelace") does not
 * show text ("AL") that its name lacks (WCAG 2.5.3, label in name).
 */
export function Avatar({
  name,
  image,
  size = "md",
}: {
  name: string;
  image?: string | null;
  size?: "xs" | "sm" | "md" | "lg";
}) {
  const [failed, setFailed] = useState(false);
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    // The first grapheme, not the first UTF-16 unit: an emoji or an accented letter stays whole.
    .map((part) => graphemes.segment(part)[Symbol.iterator]().next().value?.segment.toUpperCase())
    .join("");
  const box =
    size === "xs"
      ? "size-5 text-[10px]"
      : size === "sm"
        ? "size-8 text-xs"
        : size === "lg"
          ? "size-16 text-xl"
          : "size-10 text-sm";
  if (image && !failed) {
    return (
      <img
        src={image}
        alt=""
        onError={() => setFailed(true)}
        className={cn("shrink-0 rounded-full object-cover", box)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-initials={initials || "?"}
      className={cn(
        "inline-flex shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700 before:content-[attr(data-initials)] dark:bg-brand-700/30 dark:text-brand-100",
        box,
      )}
    />
  );
}
