#!/usr/bin/env python3
"""A real GATT client (Google Bumble) against a served board's GATT server.

Connects to ADDRESS (public) over the board at SERIAL_PATH, reads the Ranging Service's
features before encryption (expecting Insufficient Encryption), encrypts with the bond's key,
exchanges the MTU, discovers every service and the Ranging Service's characteristics and
descriptors, reads RAS Features, subscribes to Real-time Ranging Data and waits for one
notification. Prints one JSON object.

usage: bumble_gatt_client.py SERIAL_PATH ADDRESS LTK_HEX
"""
import asyncio
import json
import sys

from bumble import hci
from bumble.core import UUID
from bumble.device import Device, Peer
from bumble.transport import open_transport


async def main(path, address, ltk):
    result = {"host": "bumble", "role": "gatt-client"}
    transport = path if path.startswith(("serial:", "pty:", "usb:", "tcp-client:")) else f"serial:{path},1000000"
    async with await open_transport(transport) as (source, sink):
        device = Device.with_hci("bumble-gatt", hci.Address("F0:F1:F2:F3:F4:F5"), source, sink)
        await device.power_on()
        connection = await asyncio.wait_for(device.connect(hci.Address(address, hci.Address.PUBLIC_DEVICE_ADDRESS)), 10)
        peer = Peer(connection)
        result["mtu"] = await asyncio.wait_for(peer.request_mtu(247), 10)
        services = await asyncio.wait_for(peer.discover_services(), 10)
        result["services"] = sorted(str(s.uuid) for s in services)
        ras = [s for s in services if s.uuid == UUID.from_16_bits(0x185B)]
        if not ras:
            print(json.dumps(result))
            return
        characteristics = await asyncio.wait_for(ras[0].discover_characteristics(), 10)
        result["characteristics"] = [[str(c.uuid), c.handle, int(c.properties)] for c in characteristics]
        features = [c for c in characteristics if c.uuid == UUID.from_16_bits(0x2C14)][0]
        try:
            await asyncio.wait_for(features.read_value(), 10)
            result["unencrypted_read"] = "allowed"
        except Exception as e:
            result["unencrypted_read"] = type(e).__name__ + ": " + str(getattr(e, "error_code", e))
        encrypted = asyncio.get_running_loop().create_future()
        device.host.on("connection_encryption_change", lambda *args: encrypted.done() or encrypted.set_result(args))
        await device.send_command(hci.HCI_LE_Enable_Encryption_Command(
            connection_handle=connection.handle, random_number=bytes(8), encrypted_diversifier=0, long_term_key=bytes.fromhex(ltk)))
        await asyncio.wait_for(encrypted, 10)
        result["features"] = (await asyncio.wait_for(features.read_value(), 10)).hex()
        real_time = [c for c in characteristics if c.uuid == UUID.from_16_bits(0x2C15)][0]
        await asyncio.wait_for(real_time.discover_descriptors(), 10)
        result["real_time_descriptors"] = [str(d.type) for d in real_time.descriptors]
        notified = asyncio.get_running_loop().create_future()
        await asyncio.wait_for(real_time.subscribe(lambda value: notified.done() or notified.set_result(value)), 10)
        result["notification"] = (await asyncio.wait_for(notified, 10)).hex()
        await connection.disconnect()
    print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
