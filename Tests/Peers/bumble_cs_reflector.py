#!/usr/bin/env python3
"""A real host stack (Google Bumble) as the CS reflector on a served board.

Attaches to the board's serial path with H4, powers the controller up with Channel Sounding
enabled, advertises connectably (legacy advertising from its random static address, with the
Ranging Service UUID 0x185B and a name), answers the central's LE Long Term Key Request with
the bond's key, and allows the reflector role (LE CS Set Default Settings) as soon as the link
is up, as Zephyr's reflector sample does: set later (on the encryption change) it races the
initiator's LL_CS_REQ, which the controller then rightly refuses (Command Disallowed). Runs until the central disconnects, then prints one JSON object with what it saw,
its own tones per procedure among it (channel: [I, Q] of its mode-2 PCTs, summed), which an
initiator without inline PCT needs for the distance.

With ras-realtime or ras-ondemand it also serves the Ranging Service (ras_server.py) in that
mode, for an initiator that configures CS without inline PCT; the summary then has "ras".

usage: bumble_cs_reflector.py SERIAL_PATH ADDRESS LTK_HEX [SECONDS [none|ras-realtime|ras-ondemand]]
"""
import asyncio
import json
import sys

from bumble import hci
from bumble.core import AdvertisingData
from bumble.device import Device
from bumble.transport import open_transport

from cs_tones import pct
from ras_server import RangingService


async def main(path, address, ltk, seconds, ras_mode):
    result = {"host": "bumble", "role": "reflector", "subevent_results": 0, "procedures": []}
    # A path is a serial line at 1 Mbaud; a Bumble transport (serial:/dev/ttyACM0,1000000,rtscts) is taken as it is.
    transport = path if path.startswith(("serial:", "pty:", "usb:", "tcp-client:")) else f"serial:{path},1000000"
    async with await open_transport(transport) as (source, sink):
        device = Device.with_hci("bumble-reflector", hci.Address(address), source, sink)
        device.config.channel_sounding_enabled = True
        ras = RangingService(device, real_time=ras_mode == "ras-realtime") if ras_mode.startswith("ras") else None

        async def long_term_key(connection_handle, rand, ediv):
            return bytes.fromhex(ltk)

        await device.power_on()
        # The bond's key for the central's encryption start (until SMP pairing lands here).
        device.host.long_term_key_provider = long_term_key
        done = asyncio.get_running_loop().create_future()

        def on_connection(connection):
            result["peer_address"] = str(connection.peer_address)
            if ras:
                ras.connection = connection
            # Bumble sends one command at a time, in order: this lands before the LTK reply, so
            # before the link is encrypted and the initiator can ask for procedures.
            asyncio.create_task(device.set_default_cs_settings(connection, role_enable=hci.CsRoleMask.REFLECTOR))

            def on_encryption_change(*args):
                result["encrypted"] = connection.encryption != 0

            def on_disconnection(reason):
                result["disconnection_reason"] = reason
                done.done() or done.set_result(None)

            connection.on("connection_encryption_change", on_encryption_change)
            connection.on("disconnection", on_disconnection)

        tones = {}

        def add_steps(event):
            for mode, channel, data in zip(event.step_mode, event.step_channel, event.step_data):
                if mode == 2 and len(data) >= 4:
                    tones[channel] = tones.get(channel, 0j) + pct(int.from_bytes(data[1:4], "little"))
            if event.procedure_done_status == 0:
                result["procedures"].append({str(ch): [z.real, z.imag] for ch, z in sorted(tones.items())})
                tones.clear()

        def count_results(event):
            result["subevent_results"] += 1
            add_steps(event)

        device.on("connection", on_connection)
        device.host.on("cs_subevent_result", count_results)
        device.host.on("cs_subevent_result_continue", add_steps)
        data = AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, bytes([0x5B, 0x18])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, b"bumble-reflector"),
        ])
        await device.start_advertising(advertising_data=bytes(data), advertising_interval_min=50, advertising_interval_max=50)
        print("advertising", flush=True)
        try:
            await asyncio.wait_for(done, seconds)
        except asyncio.TimeoutError:
            result["timed_out"] = True
    if ras:
        result["ras"] = ras.stats
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]) if len(sys.argv) > 4 else 30,
                     sys.argv[5] if len(sys.argv) > 5 else "none"))
