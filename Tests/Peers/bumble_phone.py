#!/usr/bin/env python3
"""A phone that is not ours (Google Bumble's host) ranging this project's accessory.

Connects to the accessory at ADDRESS (its static random address), pairs with LE Secure
Connections and bonding (Just Works, or typing PASSKEY), discovers the Ranging Service, reads
RAS Features, subscribes to the ranging data (real-time when offered, else on demand with the
Control Point's Get and ACK), then runs Channel Sounding as initiator (inline PCT or not) for
COUNT procedures. Without inline PCT the distance comes from its own PCTs times the
reflector's, decoded from RAS; with it, from its own. Prints one JSON object.

usage: bumble_phone.py SERIAL_PATH ADDRESS COUNT ipt|no-ipt [PASSKEY]

With BUMBLE_PHONE_SNOOP=FILE in the environment, Bumble's own btsnoop writer records the
phone's HCI traffic (its host's side) to FILE.
"""
import asyncio
import json
import os
import sys

from bumble import hci
from bumble.core import UUID
from bumble.device import Device, Peer
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport

from cs_tones import distance, pct


def reflector_tones(body, channels):
    """The reflector's mode-2 PCTs from RAS ranging data (RAS 1.0 3.2.1.2), summed per step, in
    step order; `channels` are the initiator's mode-2 channels in the same order."""
    paths = bin(body[3] & 0x0F).count("1")
    at, tones = 4, []
    while at + 8 <= len(body):
        steps = body[at + 7]
        at += 8
        for _ in range(steps):
            mode = body[at]
            at += 1
            if mode & 0x80:
                continue
            mode &= 0x03
            if mode == 0:
                at += 3  # a reflector's mode-0 data: quality, RSSI, antenna
            elif mode == 1:
                at += 6
            elif mode == 2:
                z = sum((pct(int.from_bytes(body[at + 1 + 4 * k:at + 4 + 4 * k], "little")) for k in range(paths + 1)), 0j)
                tones.append(z)
                at += 1 + 4 * (paths + 1)
            else:
                at += 6 + 1 + 4 * (paths + 1)
    return dict(zip(channels, tones))


class Delegate(PairingDelegate):
    def __init__(self, passkey):
        io = PairingDelegate.IoCapability.KEYBOARD_INPUT_ONLY if passkey is not None else PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT
        super().__init__(io_capability=io)
        self.passkey = passkey

    async def get_number(self):
        return self.passkey

    async def confirm(self, auto=False):
        return True


async def main(path, address, count, ipt, passkey):
    result = {"host": "bumble", "role": "phone", "procedures": []}
    transport = path if path.startswith(("serial:", "pty:", "usb:", "tcp-client:")) else f"serial:{path},1000000"
    async with await open_transport(transport) as (source, sink):
        device = Device.with_hci("bumble-phone", hci.Address("F0:F1:F2:F3:F4:F5"), source, sink)
        if os.environ.get("BUMBLE_PHONE_SNOOP"):
            from bumble.snoop import BtSnooper
            device.host.snooper = BtSnooper(open(os.environ["BUMBLE_PHONE_SNOOP"], "wb", buffering=0))
        device.config.channel_sounding_enabled = True
        device.pairing_config_factory = lambda c: PairingConfig(sc=True, mitm=passkey is not None, bonding=True, delegate=Delegate(passkey),
                                                                identity_address_type=hci.Address.RANDOM_DEVICE_ADDRESS)
        await device.power_on()
        connection = await asyncio.wait_for(device.connect(hci.Address(address, hci.Address.RANDOM_DEVICE_ADDRESS)), 10)
        keys = asyncio.get_running_loop().create_future()
        connection.on("pairing", lambda k: keys.done() or keys.set_result(k))
        connection.on("pairing_failure", lambda r: keys.done() or keys.set_result(int(r)))
        try:
            await asyncio.wait_for(connection.pair(), 30)
        except Exception:
            pass  # the failure event says why
        k = await asyncio.wait_for(keys, 30)
        if isinstance(k, int):
            # Refused: a phone leaves (and says why).
            result["pairing_failure"] = k
            await connection.disconnect()
            print(json.dumps(result))
            return
        result["ltk"] = k.ltk.value.hex() if k.ltk else None
        result["encrypted"] = connection.is_encrypted
        peer = Peer(connection)
        result["mtu"] = await asyncio.wait_for(peer.request_mtu(247), 10)
        services = await asyncio.wait_for(peer.discover_services(), 10)
        ras = [s for s in services if s.uuid == UUID.from_16_bits(0x185B)][0]
        result["services"] = sorted(str(s.uuid)[:12] for s in services)
        chars = {c.uuid: c for c in await asyncio.wait_for(ras.discover_characteristics(), 10)}

        def char(n):
            return chars[UUID.from_16_bits(n)]

        features = int.from_bytes(await asyncio.wait_for(char(0x2C14).read_value(), 10), "little")
        result["features"] = features
        bodies = {}
        assembling = bytearray()
        changed = asyncio.Event()  # a procedure or a body arrived

        def segment(value):
            nonlocal assembling
            value = bytes(value)
            if value[0] & 1:
                assembling = bytearray()
            assembling += value[1:]
            if value[0] & 2 and len(assembling) >= 4:
                bodies[int.from_bytes(assembling[0:2], "little") & 0x0FFF] = bytes(assembling)
                changed.set()

        cp = char(0x2C17)
        if features & 1:
            result["ras_mode"] = "real-time"
            await char(0x2C15).discover_descriptors()
            await asyncio.wait_for(char(0x2C15).subscribe(segment), 10)
        else:
            result["ras_mode"] = "on-demand"
            for n in (0x2C16, 0x2C17, 0x2C18):
                await char(n).discover_descriptors()
            await asyncio.wait_for(char(0x2C16).subscribe(segment), 10)

            def control_point(value):
                value = bytes(value)
                if value[0] == 0x00:  # Complete Ranging Data Response: acknowledge it
                    asyncio.create_task(cp.write_value(bytes([0x01]) + value[1:3], with_response=False))

            await asyncio.wait_for(cp.subscribe(control_point, prefer_notify=False), 10)
            await asyncio.wait_for(char(0x2C18).subscribe(
                lambda v: asyncio.create_task(cp.write_value(bytes([0x00]) + bytes(v)[0:2], with_response=False))), 10)

        caps = await asyncio.wait_for(device.get_remote_cs_capabilities(connection), 10)
        result["remote_inline_pct"] = bool(caps.subfeatures_supported & 0x10)
        await device.set_default_cs_settings(connection, role_enable=hci.CsRoleMask.INITIATOR)
        config = await asyncio.wait_for(device.create_cs_config(
            connection, channel_map=bytes.fromhex("FCFF7FFCFFFFFFFFFF1F"), cs_enhancements=0x01 if ipt else 0x00), 10)
        await asyncio.wait_for(device.enable_cs_security(connection), 10)
        await device.set_cs_procedure_parameters(connection, config, max_procedure_len=0x0140, preferred_peer_antenna=0x01,
                                                 max_subevent_len=7000, max_procedure_count=0)
        mine, order = {}, []
        pending = []
        finished = asyncio.get_running_loop().create_future()

        def add_steps(event):
            for mode, channel, data in zip(event.step_mode, event.step_channel, event.step_data):
                if mode == 2 and len(data) >= 5:
                    mine.setdefault(channel, 0j)
                    mine[channel] += pct(int.from_bytes(data[1:4], "little"))
                    order.append(channel)
            if event.procedure_done_status == 0:
                # The counter as it is now: a Continue event carries none, and by the time the
                # procedure is paired with its RAS data the next one may have begun.
                pending.append((getattr(event, "procedure_counter", pending_counter[0]), dict(mine), list(order)))
                changed.set()
                mine.clear()
                order.clear()

        def on_first(event):
            pending_counter[0] = event.procedure_counter & 0x0FFF
            add_steps(event)

        pending_counter = [0]
        device.host.on("cs_subevent_result", on_first)
        device.host.on("cs_subevent_result_continue", add_steps)
        await asyncio.wait_for(device.enable_cs_procedure(connection, config), 10)
        deadline = asyncio.get_running_loop().time() + 20
        while len(result["procedures"]) < count and asyncio.get_running_loop().time() < deadline:
            try:
                await asyncio.wait_for(changed.wait(), deadline - asyncio.get_running_loop().time())
            except asyncio.TimeoutError:
                break
            changed.clear()
            while pending:
                counter, tones, channels = pending[0]
                counter &= 0x0FFF
                if ipt:
                    result["procedures"].append({"distance_m": distance(tones)})
                elif counter in bodies:
                    theirs = reflector_tones(bodies.pop(counter), channels)
                    product = {ch: z * theirs[ch] for ch, z in tones.items() if ch in theirs}
                    result["procedures"].append({"distance_m": distance(product), "counter": counter})
                else:
                    break
                pending.pop(0)
        await connection.disconnect()
    print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "ipt",
                     int(sys.argv[5]) if len(sys.argv) > 5 else None))
