"use client";

import { useRef, useState, type DragEvent } from "react";

/**
 * Where files come in: drag-and-drop anywhere on the zone, or the "Choose files" button (keyboard
 * accessible) which opens the hidden, labelled file input.
 */
export function DropZone({ onFiles, hint }: { onFiles: (files: File[]) => void; hint: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [active, setActive] = useState(false);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setActive(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onFiles(files);
  };

  return (
    <div
      className="dropzone"
      data-testid="drop-zone"
      data-active={active}
      onDragOver={(e) => {
        e.preventDefault();
        setActive(true);
      }}
      onDragLeave={() => setActive(false)}
      onDrop={onDrop}
      onClick={(e) => {
        if (e.target === e.currentTarget) input.current?.click();
      }}
    >
      <strong>Drop trace files here</strong>
      <span>{hint}</span>
      <button type="button" className="btn btn-primary" onClick={() => input.current?.click()}>
        Choose files
      </button>
      <input
        ref={input}
        type="file"
        multiple
        className="visually-hidden"
        aria-label="Choose trace files"
        tabIndex={-1}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = ""; // picking the same file again must fire change again
          if (files.length > 0) onFiles(files);
        }}
      />
    </div>
  );
}
