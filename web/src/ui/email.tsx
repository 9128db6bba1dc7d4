// An e-mail address that never widens its box. Up to 254 characters without a space would otherwise
// either push the page sideways or break anywhere, letter by letter, over many lines. It keeps the local
// part and "@domain" together on one line when they fit; otherwise the domain goes to a second line, and
// each part that is still too long is cut with an ellipsis. The whole address stays in the text (select and
// copy it) and in the tooltip.
export function Email({ address, className, testId }: { address: string; className?: string; testId?: string }) {
  const at = address.lastIndexOf("@");
  const local = at > 0 ? address.slice(0, at) : address;
  const domain = at > 0 ? address.slice(at) : "";
  return (
    <span className={className ? `email ${className}` : "email"} title={address} data-testid={testId}>
      <span className="email-part">{local}</span>
      {domain ? <span className="email-part">{domain}</span> : null}
    </span>
  );
}
