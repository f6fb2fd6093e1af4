"use client";

import type { Ref } from "react";
import type { SearchState } from "./use-session-search";
import styles from "./search-bar.module.css";

export interface SearchBarProps {
  inputRef: Ref<HTMLInputElement>;
  query: string;
  state: SearchState;
  onQueryChange(value: string): void;
  onSubmit(direction: 1 | -1): void;
  onClear(): void;
}

/** The timeline's search box: text or an object id; Enter / Shift+Enter step through hits. */
export function SearchBar(props: SearchBarProps) {
  const { inputRef, query, state, onQueryChange, onSubmit, onClear } = props;
  return (
    <div className={styles.search} role="search">
      <input
        ref={inputRef}
        className={`input ${styles.searchInput}`}
        type="text"
        placeholder="Search text or jump to an object id (function:read:3)   /"
        aria-label="Search messages"
        value={query}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => onQueryChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            onSubmit(event.shiftKey ? -1 : 1);
          } else if (event.key === "Escape") {
            event.preventDefault();
            if (query) onClear();
            else event.currentTarget.blur();
          }
        }}
      />
      <span className={styles.searchStatus} data-testid="search-status" aria-live="polite">
        {describe(state)}
      </span>
      <button
        type="button"
        className="btn btn-sm btn-ghost"
        aria-label="Previous match"
        title="Previous match (Shift+Enter)"
        onClick={() => onSubmit(-1)}
        disabled={!query.trim()}
      >
        ↑
      </button>
      <button
        type="button"
        className="btn btn-sm btn-ghost"
        aria-label="Next match"
        title="Next match (Enter)"
        onClick={() => onSubmit(1)}
        disabled={!query.trim()}
      >
        ↓
      </button>
    </div>
  );
}

function describe(state: SearchState): string {
  switch (state.status) {
    case "idle":
      return "";
    case "loading":
      return "searching…";
    case "error":
      return `search failed: ${state.error}`;
    case "done": {
      const { hits, truncated, mode } = state.result;
      if (hits.length === 0) return "no matches";
      const total = `${hits.length.toLocaleString("en-US")}${truncated ? "+" : ""}`;
      return `${state.position + 1} / ${total}${mode === "object" ? " objects" : ""}`;
    }
  }
}
