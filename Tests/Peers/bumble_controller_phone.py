#!/usr/bin/env python3
"""A phone nobody here wrote (Google Bumble's host), on a controller nobody here wrote either
(Bumble's virtual controller, `bumble_controllers.py`), checking an accessory step by step.

The steps, in order; each one's outcome goes into one JSON object printed at the end (stdout,
one line), so a test can assert each:

  scan             an advertiser listing the Ranging Service (0x185B) in its 16-bit UUIDs
  connect          LE connection to it (its advertised address)
  mtu              ATT MTU exchange (247 asked)
  discover_before  primary services and the Ranging Service's characteristics, unencrypted
  read_before      RAS Features (0x2C14) before encryption: expected refused with the ATT
                   error Insufficient Encryption (0x0F) or Insufficient Authentication (0x05);
                   "ok" means it was refused so
  pair             LE Secure Connections, bonding, Just Works (NoInputNoOutput)
  discover         every service and its characteristics, encrypted: GAP 1800, GATT 1801,
                   Device Information 180A, Ranging Service 185B (2C14..2C19)
  read_after       RAS Features after encryption (4 octets)
  subscribe        the CCCD of Real-time Ranging Data (2C15) when Features bit 0 is set,
                   else of On-demand Ranging Data (2C16): written (notifications), read back
  disconnect       the phone disconnects (Remote User Terminated Connection)
  reconnect        connects again to the same address (the accessory advertises again)
  encrypt_bond     encrypts with the bond's LTK (LE Enable Encryption): no second pairing
  read_again       RAS Features on the re-encrypted link, and the CCCD the bond kept

Each step is {"ok": true|false, ...} with what happened; after the first failure the rest are
{"ok": false, "skipped": true}. The object also holds "pairings" (how many pairings completed:
1 expected), "pairing_starts", "security_requests" and "ok" (every step ok).

usage: bumble_controller_phone.py TRANSPORT [--timeout S]
  TRANSPORT: a pty or serial path (e.g. one `bumble_controllers.py` printed), or any Bumble
  transport spec (serial:..., pty:..., tcp-client:...). Every wait has a timeout (default
  15 s a step); the run ends by itself.

`bumble_controllers.py --phone` runs the same phone in its own process on a controller of the
same link (`run_phone(device)` below).
"""
import argparse
import asyncio
import json
import sys

from bumble import hci
from bumble.core import UUID, AdvertisingData, ProtocolError
from bumble.device import Device, Peer
from bumble.pairing import PairingConfig, PairingDelegate

PHONE_ADDRESS = "F0:F1:F2:F3:F4:F5"
RANGING_SERVICE = UUID.from_16_bits(0x185B)
RAS_CHARACTERISTICS = [0x2C14, 0x2C15, 0x2C16, 0x2C17, 0x2C18, 0x2C19]
STEPS = ["scan", "connect", "mtu", "discover_before", "read_before", "pair", "discover", "read_after",
         "subscribe", "disconnect", "reconnect", "encrypt_bond", "read_again"]
CCCD = UUID.from_16_bits(0x2902)


class StepFailed(Exception):
    """A step's outcome was not what a phone needs: the run stops there."""


def uuid16(uuid):
    """'1800' for a 16-bit UUID, else its full text."""
    text = str(uuid)
    return text[8:12] if text.startswith("UUID-16:") else text


def describe(e):
    if isinstance(e, ProtocolError) and e.error_code is not None:
        return f"{type(e).__name__}: {e.error_name or ''} (0x{e.error_code:02X})"
    if isinstance(e, asyncio.TimeoutError):
        return "timed out"
    return f"{type(e).__name__}: {e}"


def make_device(name, source, sink):
    """The phone's Bumble device on an HCI source/sink (a transport, or a controller in process)."""
    device = Device.with_hci(name, hci.Address(PHONE_ADDRESS), source, sink)
    device.pairing_config_factory = lambda c: PairingConfig(
        sc=True, mitm=False, bonding=True,
        delegate=PairingDelegate(io_capability=PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT),
        identity_address_type=hci.Address.RANDOM_DEVICE_ADDRESS)
    return device


async def run_phone(device, timeout=15.0):
    """Runs every step against the first advertiser of the Ranging Service; the result object."""
    loop = asyncio.get_running_loop()
    result = {"host": "bumble", "role": "phone", "controller": "bumble", "steps": {},
              "pairings": 0, "pairing_starts": 0, "security_requests": 0}
    steps = result["steps"]
    state = {}

    def watch(connection):
        connection.on("pairing_start", lambda: result.__setitem__("pairing_starts", result["pairing_starts"] + 1))
        connection.on("pairing", lambda keys: result.__setitem__("pairings", result["pairings"] + 1))
        connection.on("security_request", lambda auth: result.__setitem__("security_requests", result["security_requests"] + 1))
        disconnected = loop.create_future()
        connection.on("disconnection", lambda reason: disconnected.done() or disconnected.set_result(reason))
        state["disconnected"] = disconnected

    async def step(name, body, limit):
        try:
            outcome = await asyncio.wait_for(body(), limit)
        except StepFailed as e:
            steps[name] = {"ok": False, "error": str(e)}
            raise
        except Exception as e:
            steps[name] = {"ok": False, "error": describe(e)}
            raise StepFailed(name) from e
        steps[name] = {"ok": True, **(outcome or {})}

    async def scan():
        found = loop.create_future()

        def on_advertisement(advertisement):
            data = advertisement.data
            uuids = (data.get(AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS) or []) + \
                    (data.get(AdvertisingData.INCOMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS) or [])
            if RANGING_SERVICE in uuids and not found.done():
                found.set_result((advertisement, uuids))

        device.on("advertisement", on_advertisement)
        await device.start_scanning(active=False)
        try:
            advertisement, uuids = await found
        finally:
            device.remove_listener("advertisement", on_advertisement)
            await device.stop_scanning()
        state["address"] = advertisement.address
        name = advertisement.data.get(AdvertisingData.COMPLETE_LOCAL_NAME) or advertisement.data.get(AdvertisingData.SHORTENED_LOCAL_NAME)
        return {"address": str(advertisement.address).replace("/P", ""), "random": advertisement.address.is_random,
                "connectable": bool(advertisement.is_connectable), "name": name,
                "services": [uuid16(u) for u in uuids]}

    async def connect():
        connection = await device.connect(state["address"], timeout=timeout)
        watch(connection)
        state["connection"] = connection
        state["peer"] = Peer(connection)
        return {"handle": connection.handle, "role": "central" if connection.role == hci.Role.CENTRAL else "peripheral",
                "encrypted": connection.is_encrypted}

    async def mtu():
        return {"mtu": await state["peer"].request_mtu(247)}

    async def discover_before():
        peer = state["peer"]
        services = await peer.discover_services()
        ras = [s for s in services if s.uuid == RANGING_SERVICE]
        if not ras:
            raise StepFailed(f"no Ranging Service among {[uuid16(s.uuid) for s in services]}")
        characteristics = await ras[0].discover_characteristics()
        state["features_before"] = next((c for c in characteristics if c.uuid == UUID.from_16_bits(0x2C14)), None)
        if state["features_before"] is None:
            raise StepFailed("no RAS Features characteristic")
        return {"services": [uuid16(s.uuid) for s in services], "ras_characteristics": [uuid16(c.uuid) for c in characteristics]}

    async def read_before():
        try:
            value = await state["features_before"].read_value()
        except ProtocolError as e:
            if e.error_code in (0x0F, 0x05):
                return {"refused": True, "att_error": e.error_code, "att_error_name": e.error_name}
            raise StepFailed(f"refused with another error: {describe(e)}")
        raise StepFailed(f"read allowed before encryption: {bytes(value).hex()}")

    async def pair():
        connection = state["connection"]
        keys = loop.create_future()
        connection.on("pairing", lambda k: keys.done() or keys.set_result(k))
        connection.on("pairing_failure", lambda reason: keys.done() or keys.set_result(int(reason)))
        pairing = asyncio.ensure_future(connection.pair())
        k = await keys
        try:
            await pairing
        except Exception:
            pass  # the failure event says why
        if isinstance(k, int):
            raise StepFailed(f"pairing failed: SMP reason 0x{k:02X}")
        if not connection.is_encrypted:
            raise StepFailed("paired, but the link is not encrypted")
        if k.ltk is None:
            raise StepFailed("no LE Secure Connections LTK (legacy pairing?)")
        state["ltk"] = k.ltk.value.hex() if k.ltk else None
        kept = await device.keystore.get(str(connection.peer_address))
        # LE Secure Connections gives one LTK (legacy pairing distributes a peripheral's LTK instead).
        return {"secure_connections": k.ltk is not None, "bonded": kept is not None, "encrypted": connection.is_encrypted, "ltk": state["ltk"],
                "peer_irk": k.irk is not None, "bond_kept_under": str(connection.peer_address).replace("/P", "")}

    async def discover():
        peer = Peer(state["connection"])
        state["peer"] = peer
        services = await peer.discover_services()
        listed = {}
        for s in services:
            characteristics = await s.discover_characteristics()
            listed[uuid16(s.uuid)] = [uuid16(c.uuid) for c in characteristics]
            if s.uuid == RANGING_SERVICE:
                state["ras"] = {c.uuid: c for c in characteristics}
        missing = [u for u in ("1800", "1801", "180A", "185B") if u not in listed]
        if missing:
            raise StepFailed(f"missing services {missing} among {sorted(listed)}")
        ras_missing = [f"{n:04X}" for n in RAS_CHARACTERISTICS if f"{n:04X}" not in listed["185B"]]
        if ras_missing:
            raise StepFailed(f"the Ranging Service lacks {ras_missing}")
        return {"services": sorted(listed), "characteristics": listed}

    async def read_features(key):
        value = bytes(await state["ras"][UUID.from_16_bits(0x2C14)].read_value())
        if len(value) != 4:
            raise StepFailed(f"RAS Features is {len(value)} octets: {value.hex()}")
        features = int.from_bytes(value, "little")
        state[key] = features
        return {"features": features, "value": value.hex(), "real_time": bool(features & 1)}

    async def read_cccd(characteristic):
        await characteristic.discover_descriptors()
        descriptor = next((d for d in characteristic.descriptors if d.type == CCCD), None)
        if descriptor is None:
            raise StepFailed(f"{uuid16(characteristic.uuid)} has no CCCD")
        return int.from_bytes(bytes(await descriptor.read_value()), "little")

    async def subscribe():
        real_time = state["features"] & 1
        characteristic = state["ras"][UUID.from_16_bits(0x2C15 if real_time else 0x2C16)]
        state["subscribed"] = characteristic.uuid
        await characteristic.discover_descriptors()
        await characteristic.subscribe(lambda value: None, prefer_notify=True)
        cccd = await read_cccd(characteristic)
        if cccd != 0x0001:
            raise StepFailed(f"the CCCD reads 0x{cccd:04X} after subscribing")
        return {"characteristic": uuid16(characteristic.uuid), "mode": "real-time" if real_time else "on-demand", "cccd": cccd}

    async def disconnect():
        connection = state["connection"]
        await connection.disconnect()
        reason = await state["disconnected"]
        return {"reason": int(reason)}

    async def reconnect():
        return await connect()

    async def encrypt_bond():
        connection = state["connection"]
        keys = await device.keystore.get(str(connection.peer_address))
        if keys is None:
            raise StepFailed(f"no bond kept for {connection.peer_address}")
        await connection.encrypt()
        if not connection.is_encrypted:
            raise StepFailed("not encrypted")
        if result["pairings"] != 1 or result["pairing_starts"] != 1:
            raise StepFailed(f"{result['pairings']} pairings, {result['pairing_starts']} started: a second pairing")
        return {"encrypted": True, "same_ltk": keys.ltk is not None and keys.ltk.value.hex() == state.get("ltk"), "pairings": result["pairings"]}

    async def read_again():
        peer = Peer(state["connection"])
        services = await peer.discover_services()
        ras = [s for s in services if s.uuid == RANGING_SERVICE]
        if not ras:
            raise StepFailed("no Ranging Service on reconnection")
        state["ras"] = {c.uuid: c for c in await ras[0].discover_characteristics()}
        outcome = await read_features("features_again")
        outcome["cccd_kept"] = await read_cccd(state["ras"][state["subscribed"]])
        return outcome

    bodies = {"scan": scan, "connect": connect, "mtu": mtu, "discover_before": discover_before, "read_before": read_before,
              "pair": pair, "discover": discover, "read_after": lambda: read_features("features"), "subscribe": subscribe,
              "disconnect": disconnect, "reconnect": reconnect, "encrypt_bond": encrypt_bond, "read_again": read_again}
    try:
        for name in STEPS:
            # The scan waits for the accessory to come up (it may start after the phone).
            await step(name, bodies[name], timeout * 4 if name == "scan" else timeout)
    except StepFailed:
        pass
    for name in STEPS:
        steps.setdefault(name, {"ok": False, "skipped": True})
    result["ok"] = all(steps[n]["ok"] for n in STEPS)
    connection = state.get("connection")
    if connection is not None and not state["disconnected"].done():
        try:
            await asyncio.wait_for(connection.disconnect(), 5)
        except Exception:
            pass
    return result


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("transport")
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds a step may take (the scan: 4 times that)")
    args = parser.parse_args()
    from bumble.transport import open_transport
    spec = args.transport
    if not spec.split(":", 1)[0] in ("serial", "pty", "usb", "tcp-client", "tcp-server", "file", "hci-socket", "vhci"):
        spec = f"serial:{spec},1000000"
    try:
        transport = await asyncio.wait_for(open_transport(spec), args.timeout)
    except Exception as e:
        print(json.dumps({"host": "bumble", "role": "phone", "ok": False, "error": f"cannot open {spec}: {describe(e)}"}), flush=True)
        return 1
    async with transport as (source, sink):
        device = make_device("bumble-phone", source, sink)
        try:
            await asyncio.wait_for(device.power_on(), args.timeout)
        except Exception as e:
            result = {"host": "bumble", "role": "phone", "ok": False, "error": f"the controller did not power on: {describe(e)}"}
        else:
            result = await run_phone(device, args.timeout)
    print(json.dumps(result), flush=True)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
