/** Shown while the evaluations page loads its runs. */
export default function Loading() {
  return (
    <p className="faint" role="status">
      Loading evaluations…
    </p>
  );
}
