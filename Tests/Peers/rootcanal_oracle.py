#!/usr/bin/env python3
"""RootCanal's HCI packets as a second implementation of this project's CS codecs
(TestSupport's RootCanalOracle).

usage: rootcanal_oracle.py FILE

RootCanal's pip package (rootcanal==1.13.0, installed by scripts/ensure-deps) carries the
Python its PDL compiler generates from RootCanal's hci_packets.pdl: `rootcanal.packets.hci`.

FILE holds one vector a line, tab-separated:
  1. a Python expression RootCanal builds the packet from (its constructors, `hci` in scope;
     may be empty),
  2. our packet: H4 octets in hex (indicator 01 command, 04 event),
  3. optionally an expression to print, over `c` (RootCanal's parse of ours) and `built`.

Prints a line a vector, tab-separated: the built packet (H4 hex), ours parsed and serialized
again by RootCanal (H4 hex), the class RootCanal parsed ours as, and repr() of column 3's
value; a step that raised prints 'ERR <type> <message>' in its column. RootCanal's serializers
print their warnings (a value truncated) on stdout: they go to stderr here, so stdout holds
the answers only.
"""
import contextlib
import sys

from rootcanal.packets import hci  # noqa: F401 (the expressions use it)

B = bytes.fromhex


def h4(packet):
    """RootCanal's packet with its H4 indicator: 01 for a command, 04 for an event."""
    indicator = b'\x01' if isinstance(packet, hci.Command) else b'\x04'
    return indicator + bytes(packet.serialize())


def parse(ours):
    octets = B(ours)
    kinds = {0x01: hci.Command, 0x04: hci.Event}
    if not octets or octets[0] not in kinds:
        raise ValueError('not an H4 command or event')
    return kinds[octets[0]].parse_all(octets[1:])


def attempt(step):
    try:
        return step()
    except Exception as e:  # the answer names it; the test decides
        return 'ERR ' + type(e).__name__ + ' ' + str(e).replace('\n', ' ').replace('\t', ' ')


def main():
    text = open(sys.argv[1]).read()
    out = sys.stdout
    answers = []
    with contextlib.redirect_stdout(sys.stderr):
        for line in [l for l in text.split('\n') if l]:
            columns = line.split('\t')
            expression, ours = columns[0], columns[1]
            fields = columns[2] if len(columns) > 2 else ''
            built_value = attempt(lambda: eval(expression)) if expression else None
            built = '' if built_value is None else built_value if isinstance(built_value, str) else attempt(lambda: h4(built_value).hex())
            parsed_value = attempt(lambda: parse(ours))
            parsed = parsed_value if isinstance(parsed_value, str) else attempt(lambda: h4(parsed_value).hex())
            kind = 'ERR' if isinstance(parsed_value, str) else type(parsed_value).__name__
            shown = attempt(lambda: repr(eval(fields, globals(), {'c': parsed_value, 'built': built_value}))) if fields else ''
            answers.append(built + '\t' + parsed + '\t' + kind + '\t' + shown)
    for a in answers:
        out.write(a + '\n')


if __name__ == '__main__':
    main()
