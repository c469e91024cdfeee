// A test reporter that writes only the failed tests, each with its file and the assertion's
// message in full, so the end of a long run says what failed and why.
export default async function* failures(source) {
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const error = event.data.details?.error;
    // A suite fails when one of its tests does; that test is reported on its own.
    if (!error || error.failureType === 'subtestsFailed') continue;
    const cause = error.cause ?? error;
    const message = String(cause?.message ?? cause).slice(0, 4000);
    yield `✗ ${event.data.name}\n  in ${event.data.file ?? '?'}\n  ${message.replaceAll('\n', '\n  ')}\n\n`;
  }
}
