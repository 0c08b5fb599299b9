export default function ForbiddenPage() {
  return (
    <div className="max-w-lg rounded-lg border border-amber-200 bg-amber-50 p-6" data-testid="forbidden">
      <h1 className="text-lg font-semibold text-amber-900">Not available for your role</h1>
      <p className="mt-1 text-sm text-amber-800">Ask an administrator if you need access to this page.</p>
    </div>
  );
}
