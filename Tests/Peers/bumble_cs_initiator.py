#!/usr/bin/env python3
"""A real host stack (Google Bumble) ranging through a served virtual board.

Attaches to the board's serial path with H4, powers the controller up as Bumble does for any
controller, connects to the emulated reflector, encrypts with the bond's key, runs LE Channel
Sounding (remote capabilities, default settings, config with inline PCT, security, procedure
parameters, enable), collects the LE CS Subevent Result events, and estimates the distance
from the initiator's PCTs (phase slope over adjacent channels). Prints one JSON object.

usage: bumble_cs_initiator.py SERIAL_PATH PEER_ADDRESS LTK_HEX [PROCEDURES [public|random [ipt|no-ipt]]]

With no-ipt the configuration asks for no inline PCT transfer: the distance then needs the
reflector's PCTs too, so each procedure also lists its tones (channel: [I, Q] summed).
"""
import asyncio
import json
import sys

from bumble import hci
from bumble.device import Device
from bumble.transport import open_transport

from cs_tones import distance, pct


async def main(path, peer, ltk, count, address_type, ipt):
    result = {"host": "bumble", "procedures": []}
    # A path is a serial line at 1 Mbaud; a Bumble transport (serial:/dev/ttyACM0,1000000,rtscts) is taken as it is.
    transport = path if path.startswith(("serial:", "pty:", "usb:", "tcp-client:")) else f"serial:{path},1000000"
    async with await open_transport(transport) as (source, sink):
        device = Device.with_hci("bumble", hci.Address("F0:F1:F2:F3:F4:F5"), source, sink)
        # A stock power-on with Channel Sounding enabled, as a new user configures it: Bumble sets
        # the CS host feature and reads the local CS capabilities only if the controller's
        # Supported_Commands lists LE Set Host Feature (and the v2 read if it lists that).
        device.config.channel_sounding_enabled = True
        await device.power_on()
        result["controller_version"] = device.host.local_version.hci_version
        caps = device.cs_capabilities
        result["local_cs_capabilities"] = None if caps is None else {
            "num_config_supported": caps.num_config_supported, "t_ip1_times_supported": caps.t_ip1_times_supported,
            "t_fcs_times_supported": caps.t_fcs_times_supported}
        kind = hci.Address.RANDOM_DEVICE_ADDRESS if address_type == "random" else hci.Address.PUBLIC_DEVICE_ADDRESS
        connection = await asyncio.wait_for(device.connect(hci.Address(peer, kind)), 10)
        encrypted = asyncio.get_running_loop().create_future()
        device.host.on("connection_encryption_change", lambda *args: encrypted.done() or encrypted.set_result(args))
        await device.send_command(hci.HCI_LE_Enable_Encryption_Command(
            connection_handle=connection.handle, random_number=bytes(8), encrypted_diversifier=0,
            long_term_key=bytes.fromhex(ltk)))
        await asyncio.wait_for(encrypted, 10)
        caps = await asyncio.wait_for(device.get_remote_cs_capabilities(connection), 10)
        result["remote_inline_pct"] = bool(caps.subfeatures_supported & 0x10)
        await device.set_default_cs_settings(connection, role_enable=hci.CsRoleMask.INITIATOR)
        config = await asyncio.wait_for(device.create_cs_config(
            connection, channel_map=bytes.fromhex("FCFF7FFCFFFFFFFFFF1F"), cs_enhancements=0x01 if ipt else 0x00), 10)
        await asyncio.wait_for(device.enable_cs_security(connection), 10)
        await device.set_cs_procedure_parameters(connection, config, max_procedure_len=0x0140, preferred_peer_antenna=0x01,
                                                 max_subevent_len=7000, max_procedure_count=count)
        tones = {}
        finished = asyncio.get_running_loop().create_future()

        def add_steps(event):
            for mode, channel, data in zip(event.step_mode, event.step_channel, event.step_data):
                if mode == 2 and len(data) >= 5:
                    tones.setdefault(channel, 0j)
                    tones[channel] += pct(int.from_bytes(data[1:4], "little"))
            if event.procedure_done_status == 0:
                result["procedures"].append({"distance_m": distance(dict(tones)),
                                             "tones": {str(ch): [z.real, z.imag] for ch, z in sorted(tones.items())}})
                tones.clear()
                if len(result["procedures"]) >= count and not finished.done():
                    finished.set_result(None)

        device.host.on("cs_subevent_result", add_steps)
        device.host.on("cs_subevent_result_continue", add_steps)
        await asyncio.wait_for(device.enable_cs_procedure(connection, config), 10)
        await asyncio.wait_for(finished, 20)
        await connection.disconnect()
    print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 3,
                     sys.argv[5] if len(sys.argv) > 5 else "public", (sys.argv[6] if len(sys.argv) > 6 else "ipt") == "ipt"))
