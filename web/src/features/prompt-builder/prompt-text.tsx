// A finished prompt as selectable text, with a button that copies it.
import { useEffect, useRef, useState } from "react";

export function PromptText({ label, text, testId }: { label: string; text: string; testId: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied("idle"), 2000);
  };
  return (
    <div style={{ display: "grid", gap: 6, minWidth: 0 }}>
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: 8 }}>
        <span className="field-label">{label}</span>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => void copy()} data-testid={`${testId}-copy`}>
          {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed: select the text" : "Copy"}
        </button>
      </div>
      <p
        className="input"
        style={{
          whiteSpace: "pre-wrap",
          overflowWrap: "anywhere",
          margin: 0,
          height: "auto",
          minHeight: 0,
          lineHeight: 1.5,
          userSelect: "all",
        }}
        data-testid={testId}
      >
        {text}
      </p>
    </div>
  );
}
