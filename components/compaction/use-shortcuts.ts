"use client";

import { useEffect, useRef } from "react";

/**
 * Single-key shortcuts for the page (`r`, `c`, `[`, `]`, `?`). Ignored while typing in a field
 * (range sliders and buttons excepted), with a modifier held, or while a modal dialog is open.
 */
export function useShortcuts(handlers: Record<string, () => void>): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      if (document.querySelector("dialog[open]") && event.key !== "Escape") return;
      const handler = latest.current[event.key];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !["range", "checkbox", "radio", "button", "submit"].includes(target.type);
  return false;
}
