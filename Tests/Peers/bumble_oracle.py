#!/usr/bin/env python3
"""Bumble as a second implementation of this project's codecs (TestSupport's BumbleOracle).

usage: bumble_oracle.py LAYER FILE     LAYER: hci, att, smp or l2cap

FILE holds one vector a line, tab-separated:
  1. a Python expression Bumble builds the packet from (its own constructors; may be empty),
  2. our octets: hex (for l2cap: our H4 ACL packets, hex, comma-separated, which Bumble's
     HCI_AclDataPacketAssembler reassembles),
  3. optionally an expression to print, over `c` (Bumble's parse of ours) and `built` (the
     bytes of column 1).

Prints a line a vector, tab-separated: the built packet (hex), ours parsed and written back
by Bumble (hex), the class Bumble parsed ours as, and repr() of column 3's value; a step that
raised prints 'ERR <type> <message>' in its column.
"""
import sys

from bumble import att, core, hci, l2cap, smp  # noqa: F401 (the expressions use them)

A = lambda h: hci.Address(bytes.fromhex(h), hci.Address.RANDOM_DEVICE_ADDRESS)  # noqa: E731
B = bytes.fromhex


def reassemble(fragments):
    """Our ACL packets through Bumble's assembler: the one L2CAP PDU they make."""
    got = []
    assembler = hci.HCI_AclDataPacketAssembler(lambda data: got.append(data))
    for f in fragments.split(','):
        assembler.feed_packet(hci.HCI_Packet.from_bytes(bytes.fromhex(f)))
    if len(got) != 1:
        raise ValueError('%d PDUs' % len(got))
    return got[0]


def acl_fragments(pdu, length, handle=0x40):
    """Bumble's host's split of a PDU: first non-flushable, then continuations (H4 hex)."""
    out = []
    for i in range(0, len(pdu), length):
        pb = hci.HCI_ACL_PB_FIRST_NON_FLUSHABLE if i == 0 else hci.HCI_ACL_PB_CONTINUATION
        chunk = pdu[i:i + length]
        out.append(bytes(hci.HCI_AclDataPacket(connection_handle=handle, pb_flag=pb, bc_flag=0,
                                               data_total_length=len(chunk), data=chunk)).hex())
    return ','.join(out)


PARSERS = {
    'hci': lambda ours: hci.HCI_Packet.from_bytes(B(ours)),
    'att': lambda ours: att.ATT_PDU.from_bytes(B(ours)),
    'smp': lambda ours: smp.SMP_Command.from_bytes(B(ours)),
    'l2cap': reassemble,
}


def attempt(step):
    try:
        return step()
    except Exception as e:  # the answer names it; the test decides
        return 'ERR ' + type(e).__name__ + ' ' + str(e).replace('\n', ' ').replace('\t', ' ')


def main():
    parse = PARSERS[sys.argv[1]]
    text = open(sys.argv[2]).read()
    for line in text.split('\n') if text else []:
        columns = line.split('\t')
        expression, ours = columns[0], columns[1]
        fields = columns[2] if len(columns) > 2 else ''
        built_value = attempt(lambda: bytes(eval(expression))) if expression else b''
        built = built_value if isinstance(built_value, str) else built_value.hex()
        parsed_value = attempt(lambda: parse(ours))
        parsed = parsed_value if isinstance(parsed_value, str) else attempt(lambda: bytes(parsed_value).hex())
        kind = 'ERR' if isinstance(parsed_value, str) else type(parsed_value).__name__
        shown = attempt(lambda: repr(eval(fields, globals(), {'c': parsed_value, 'built': built_value}))) if fields else ''
        print(built + '\t' + parsed + '\t' + kind + '\t' + shown)


if __name__ == '__main__':
    main()
