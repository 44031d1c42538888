#!/usr/bin/env python3
"""A real Security Manager (Google Bumble's SMP) pairing with this project's over a served board.

central: connects to ADDRESS (public; ADDRESS/random for a random one) and pairs (LE Secure Connections, bonding, MITM unless
IO is none). peripheral: advertises connectably from ADDRESS (its random static address) and
answers the central's pairing. Either way it distributes its IRK and identity address and
prints one JSON object: what it learned (the LTK in HCI order, the peer's IRK and identity
address), its own IRK and address, or the failure reason.

IO is none, display, keyboard, yesno or keyboard-display (Bumble's delegate); PASSKEY is what
the user types when asked (keyboard), or None.

With legacy after PASSKEY (None for none) the central pairs with LE legacy pairing (sc off);
it then prints the LTK the peripheral distributed, with its EDIV and Rand. With reconnect (a
central, after legacy or sc) it then leaves, connects again and encrypts with the bond's key
(Bumble's keystore: for a legacy bond, the LTK with its EDIV and Rand), and says whether the
link came up encrypted ("reencrypted") or what failed ("reencrypt_error").

usage: bumble_smp.py central|peripheral SERIAL_PATH ADDRESS IO [PASSKEY [legacy|sc [reconnect]]]
"""
import asyncio
import json
import sys

from bumble import hci
from bumble.core import AdvertisingData
from bumble.device import Device
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport

IO = {"none": PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT,
      "display": PairingDelegate.IoCapability.DISPLAY_OUTPUT_ONLY,
      "keyboard": PairingDelegate.IoCapability.KEYBOARD_INPUT_ONLY,
      "yesno": PairingDelegate.IoCapability.DISPLAY_OUTPUT_AND_YES_NO_INPUT,
      "keyboard-display": PairingDelegate.IoCapability.DISPLAY_OUTPUT_AND_KEYBOARD_INPUT}


class Delegate(PairingDelegate):
    def __init__(self, io, passkey, result):
        super().__init__(io_capability=IO[io])
        self.passkey = passkey
        self.result = result

    async def accept(self):
        return True

    async def confirm(self, auto=False):
        return True

    async def compare_numbers(self, number, digits):
        self.result["compared"] = number
        return True

    async def get_number(self):
        self.result["typed"] = self.passkey
        return self.passkey

    async def display_number(self, number, digits):
        self.result["displayed"] = number


async def main(role, path, address, io, passkey, legacy, reconnect):
    result = {"host": "bumble", "role": role}
    transport = path if path.startswith(("serial:", "pty:", "usb:", "tcp-client:")) else f"serial:{path},1000000"
    async with await open_transport(transport) as (source, sink):
        own = hci.Address("F0:F1:F2:F3:F4:F5") if role == "central" else hci.Address(address)
        device = Device.with_hci("bumble-smp", own, source, sink)
        device.pairing_config_factory = lambda connection: PairingConfig(
            sc=not legacy, mitm=io != "none", bonding=True, delegate=Delegate(io, passkey, result),
            identity_address_type=hci.Address.RANDOM_DEVICE_ADDRESS)
        await device.power_on()
        result["own_irk"] = device.irk.hex()
        result["own_address"] = str(device.static_address)
        done = asyncio.get_running_loop().create_future()

        links = []

        def watch(connection):
            links.append(connection)

            def paired(keys):
                ltk = keys.ltk or keys.ltk_central
                result["ltk"] = ltk.value.hex() if ltk else None
                if legacy and ltk:
                    result["ediv"], result["rand"] = ltk.ediv, ltk.rand.hex() if ltk.rand else None
                result["peer_irk"] = keys.irk.value.hex() if keys.irk else None
                result["peer_identity"] = str(connection.peer_address)
                result["authenticated"] = connection.authenticated
                done.done() or done.set_result(None)

            def failed(reason):
                result["failure"] = int(reason)
                done.done() or done.set_result(None)

            connection.on("pairing", paired)
            connection.on("pairing_failure", failed)
            connection.on("disconnection", lambda reason: done.done() or done.set_result(None))

        if role == "central":
            # ADDRESS/random: a random (static) address, as an accessory advertises from.
            kind = hci.Address.RANDOM_DEVICE_ADDRESS if address.endswith("/random") else hci.Address.PUBLIC_DEVICE_ADDRESS
            peer = hci.Address(address.removesuffix("/random"), kind)
            connection = await asyncio.wait_for(device.connect(peer), 10)
            watch(connection)
            try:
                await asyncio.wait_for(connection.pair(), 40)
            except Exception as e:  # the failure event says why
                result.setdefault("error", type(e).__name__)
        else:
            device.on("connection", watch)
            data = AdvertisingData([(AdvertisingData.FLAGS, bytes([0x06])),
                                    (AdvertisingData.COMPLETE_LOCAL_NAME, b"bumble-smp")])
            await device.start_advertising(advertising_data=bytes(data), advertising_interval_min=50, advertising_interval_max=50)
        try:
            await asyncio.wait_for(done, 45)
        except asyncio.TimeoutError:
            result["timed_out"] = True
        # The last key distribution PDUs leave: wait for the controller's completed-packets count.
        for link in links:
            queue = device.host.get_data_packet_queue(link.handle)
            if queue is not None:
                try:
                    await asyncio.wait_for(queue.drain(link.handle), 5)
                except (asyncio.TimeoutError, ValueError):
                    pass
        if role == "central" and not result.get("timed_out"):
            try:
                await asyncio.wait_for(connection.disconnect(), 5)  # a central leaves when it is done
            except Exception:
                pass
        if role == "central" and reconnect and result.get("ltk"):
            try:
                connection = await asyncio.wait_for(device.connect(peer), 10)
                await asyncio.wait_for(connection.encrypt(), 10)
                result["reencrypted"] = bool(connection.is_encrypted)
                await asyncio.wait_for(connection.disconnect(), 5)
            except Exception as e:
                result["reencrypt_error"] = type(e).__name__ + ": " + str(e)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4],
                     int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[5] != "None" else None,
                     len(sys.argv) > 6 and sys.argv[6] == "legacy",
                     len(sys.argv) > 7 and sys.argv[7] == "reconnect"))
