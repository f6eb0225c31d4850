import { LogDemuxer, demuxLogs } from '../../src/engines/docker-logs';

function frame(stream: number, text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

describe('log demultiplexing', () => {
  test('frames become one entry per line, with their stream and timestamp', () => {
    const data = Buffer.concat([
      frame(1, '2026-11-21T10:00:00.000000001Z out one\n'),
      frame(2, '2026-11-21T10:00:00.000000002Z err one\n2026-11-21T10:00:00.000000003Z err two\n'),
      frame(1, '2026-11-21T10:00:00.000000004Z no newline'),
    ]);
    expect(demuxLogs(data, true, true)).toEqual([
      { stream: 'stdout', timestamp: '2026-11-21T10:00:00.000000001Z', message: 'out one' },
      { stream: 'stderr', timestamp: '2026-11-21T10:00:00.000000002Z', message: 'err one' },
      { stream: 'stderr', timestamp: '2026-11-21T10:00:00.000000003Z', message: 'err two' },
      { stream: 'stdout', timestamp: '2026-11-21T10:00:00.000000004Z', message: 'no newline' },
    ]);
  });

  test('a chunk may end inside a header or a payload', () => {
    const data = Buffer.concat([frame(1, 'héllo\n'), frame(2, 'wörld\n')]);
    const demuxer = new LogDemuxer(true, false);
    const entries = [];
    for (let i = 0; i < data.length; i += 3) entries.push(...demuxer.push(data.subarray(i, i + 3)));
    entries.push(...demuxer.end());
    expect(entries).toEqual([
      { stream: 'stdout', timestamp: null, message: 'héllo' },
      { stream: 'stderr', timestamp: null, message: 'wörld' },
    ]);
  });

  test('a TTY stream has no frames: all stdout, CRLF trimmed', () => {
    expect(demuxLogs(Buffer.from('2026-11-21T10:00:00Z a\r\n2026-11-21T10:00:01Z b\r\n'), false, true)).toEqual([
      { stream: 'stdout', timestamp: '2026-11-21T10:00:00Z', message: 'a' },
      { stream: 'stdout', timestamp: '2026-11-21T10:00:01Z', message: 'b' },
    ]);
  });
});
