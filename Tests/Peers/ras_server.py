"""The Ranging Service (RAS 1.0) on a Bumble device: a reflector without inline PCT serves each
CS procedure's results to the initiator over GATT, as Nordic's ras_rrsp does.

Written here from the RAS specification's layouts (not from this project's Swift encoder, so
that the two check each other):
- Ranging data of one procedure: Ranging Header (Ranging_Counter 12 bits | Configuration_ID
  4 bits, LE16; Selected_TX_Power int8; Antenna_Paths_Mask), then per subevent a Subevent
  Header (Start_ACL_Conn_Event LE16, Frequency_Compensation LE16, Ranging_Done_Status 4 |
  Subevent_Done_Status 4, Ranging_Abort_Reason 4 | Subevent_Abort_Reason 4,
  Reference_Power_Level int8, Num_Steps_Reported) and its steps (Step_Mode, bit 7 = aborted,
  then the HCI Step_Data).
- Segments: one Segmentation Header octet (bit 0 first, bit 1 last, bits 2-7 a counter from 0
  per procedure) and at most ATT_MTU - 5 octets of data.
- Real-time (RAS Features bit 0): segments as notifications (or indications) of Real-time
  Ranging Data when the procedure ends.
- On demand: Ranging Data Ready (the 16-bit counter); Get Ranging Data (0x00) on the Control
  Point (Write Without Response) is answered with Response Code Success (0x02 0x01), the
  segments on On-demand Ranging Data, then Complete Ranging Data Response (0x00, counter);
  ACK Ranging Data (0x01) with Success. An unknown counter: No Records Found (0x08).
"""
import asyncio

from bumble.gatt import Characteristic, CharacteristicValue, Service

REAL_TIME = 0x01
SUCCESS, OPCODE_NOT_SUPPORTED, INVALID_PARAMETER, NO_RECORDS_FOUND = 0x01, 0x02, 0x03, 0x08
KEPT = 4  # procedures kept for an on-demand client; older ones are overwritten


class RangingService:
    def __init__(self, device, real_time):
        self.device = device
        self.real_time = real_time
        self.connection = None
        self.tx_power = 0
        self.subevents = []  # the procedure being assembled: [header fields, steps]
        self.stored = {}  # ranging counter -> body (on demand, until acknowledged)
        self.lock = asyncio.Lock()  # one server action at a time, in order
        self.stats = {"mode": "real-time" if real_time else "on-demand", "procedures_sent": 0, "segments_sent": 0,
                      "acks": 0, "overwritten": 0, "subscriptions": []}
        P, A = Characteristic.Properties, Characteristic.Permissions
        self.features = Characteristic("2C14", P.READ, A.READ_REQUIRES_ENCRYPTION,
                                       (REAL_TIME if real_time else 0).to_bytes(4, "little"))
        self.realtime = Characteristic("2C15", P.NOTIFY | P.INDICATE, A(0), b"")
        self.ondemand = Characteristic("2C16", P.NOTIFY | P.INDICATE, A(0), b"")
        self.control_point = Characteristic("2C17", P.WRITE_WITHOUT_RESPONSE | P.INDICATE, A.WRITE_REQUIRES_ENCRYPTION,
                                            CharacteristicValue(write=self.on_control_point))
        self.ready_counter = 0
        self.overwritten_counter = 0
        self.ready = Characteristic("2C18", P.READ | P.NOTIFY | P.INDICATE, A.READ_REQUIRES_ENCRYPTION,
                                    CharacteristicValue(read=lambda _: self.ready_counter.to_bytes(2, "little")))
        self.overwritten = Characteristic("2C19", P.READ | P.NOTIFY | P.INDICATE, A.READ_REQUIRES_ENCRYPTION,
                                          CharacteristicValue(read=lambda _: self.overwritten_counter.to_bytes(2, "little")))
        chars = [self.features, self.realtime, self.ondemand, self.control_point, self.ready, self.overwritten]
        self.subscribed = {}
        for c in chars[1:]:
            c.on("subscription", lambda connection, notify, indicate, c=c: self.on_subscription(c, notify, indicate))
        device.add_service(Service("185B", chars))
        device.host.on("cs_procedure", self.on_procedure_enable)
        device.host.on("cs_subevent_result", self.on_result)
        device.host.on("cs_subevent_result_continue", self.on_result)

    def on_subscription(self, characteristic, notify, indicate):
        key = str(characteristic.uuid)
        self.subscribed[key] = "indicate" if indicate and not notify else "notify" if notify else None
        self.stats["subscriptions"].append(f"{key}:{self.subscribed[key]}")

    def on_procedure_enable(self, event):
        if event.status == 0 and event.state == 1:
            self.tx_power = event.selected_tx_power

    def on_result(self, event):
        steps = b"".join(bytes([mode | (0x80 if len(data) == 0 else 0)]) + bytes(data)
                         for mode, data in zip(event.step_mode, event.step_data))
        if hasattr(event, "start_acl_conn_event_counter"):
            self.counter = (event.procedure_counter & 0x0FFF) | (event.config_id << 12)
            self.paths = event.num_antenna_paths
            self.subevents.append({"start": event.start_acl_conn_event_counter, "fc": event.frequency_compensation,
                                   "power": event.reference_power_level, "steps": steps, "count": len(event.step_mode),
                                   "done": event.procedure_done_status | event.subevent_done_status << 4,
                                   "abort": event.abort_reason})
        elif self.subevents:
            s = self.subevents[-1]
            s["steps"] += steps
            s["count"] += len(event.step_mode)
            s["done"] = event.procedure_done_status | event.subevent_done_status << 4
            s["abort"] = event.abort_reason
        else:
            return
        # Procedure done (0) or aborted (0xF): the ranging data is whole.
        if event.procedure_done_status in (0x0, 0xF) and self.subevents:
            body = self.body()
            self.subevents = []
            asyncio.create_task(self.publish(self.counter & 0x0FFF, body))

    def body(self):
        out = bytearray(self.counter.to_bytes(2, "little"))
        out += (self.tx_power & 0xFF).to_bytes(1, "little") + bytes([(1 << self.paths) - 1])
        for s in self.subevents:
            out += s["start"].to_bytes(2, "little") + (s["fc"] & 0xFFFF).to_bytes(2, "little")
            out += bytes([s["done"], s["abort"], s["power"] & 0xFF, s["count"]]) + s["steps"]
        return bytes(out)

    def segments(self, body):
        chunk = self.connection.att_mtu - 5
        pieces = [body[i:i + chunk] for i in range(0, len(body), chunk)] or [b""]
        return [bytes([(i == 0) | (i == len(pieces) - 1) << 1 | (i & 0x3F) << 2]) + p for i, p in enumerate(pieces)]

    async def send(self, characteristic, value):
        if self.subscribed.get(str(characteristic.uuid)) == "indicate":
            await self.device.indicate_subscriber(self.connection, characteristic, value)
        else:
            await self.device.notify_subscriber(self.connection, characteristic, value)

    async def publish(self, counter, body):
        async with self.lock:
            if self.connection is None:
                return
            if self.real_time and self.subscribed.get(str(self.realtime.uuid)):
                for segment in self.segments(body):
                    await self.send(self.realtime, segment)
                    self.stats["segments_sent"] += 1
                self.stats["procedures_sent"] += 1
            elif self.subscribed.get(str(self.ondemand.uuid)):
                self.stored[counter] = body
                if len(self.stored) > KEPT:
                    oldest = next(iter(self.stored))
                    del self.stored[oldest]
                    self.overwritten_counter = oldest
                    self.stats["overwritten"] += 1
                    if self.subscribed.get(str(self.overwritten.uuid)):
                        await self.send(self.overwritten, oldest.to_bytes(2, "little"))
                self.ready_counter = counter
                await self.send(self.ready, counter.to_bytes(2, "little"))

    def on_control_point(self, connection, value):
        asyncio.create_task(self.control_point_command(bytes(value)))

    async def control_point_command(self, value):
        async with self.lock:
            if len(value) == 0:
                return await self.respond(INVALID_PARAMETER)
            op, params = value[0], value[1:]
            if op not in (0x00, 0x01):
                return await self.respond(OPCODE_NOT_SUPPORTED)
            if len(params) != 2:
                return await self.respond(INVALID_PARAMETER)
            counter = int.from_bytes(params, "little")
            if counter not in self.stored:
                return await self.respond(NO_RECORDS_FOUND)
            if op == 0x01:
                del self.stored[counter]
                self.stats["acks"] += 1
                return await self.respond(SUCCESS)
            await self.respond(SUCCESS)
            for segment in self.segments(self.stored[counter]):
                await self.send(self.ondemand, segment)
                self.stats["segments_sent"] += 1
            self.stats["procedures_sent"] += 1
            await self.device.indicate_subscriber(self.connection, self.control_point, bytes([0x00]) + counter.to_bytes(2, "little"))

    async def respond(self, code):
        await self.device.indicate_subscriber(self.connection, self.control_point, bytes([0x02, code]))
