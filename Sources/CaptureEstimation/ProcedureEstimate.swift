import Captures
import RangingEstimation
import ToolJSON

/// What `reflector-emu estimate` reports for one procedure: the distance, or why there is none.
public struct ProcedureEstimate: Sendable, Equatable {
    public var procedureCounter: UInt16
    /// One-way distance in metres; `nil` when the procedure gave none (see `reason`).
    public var distance: Double?
    /// Confidence in 0…1 (`DistanceEstimate.quality`); `nil` without a distance.
    public var quality: Double?
    /// The estimator's command-line name (`ml`, `kay`, `ls`, `ifft`, `esprit`, `rtt`, `combined`).
    public var method: String
    /// Why `distance` is `nil`; `nil` when there is a distance.
    public var reason: String?
    /// The connection handle the procedure ran on (0 for a vendor's log, which does not say).
    public var connection: UInt16
    /// The procedure's Config_ID.
    public var configID: UInt8
    /// The connection's peer, when the capture has its connection event.
    public var peer: PeerAddress?
    /// Where the round-trip tones came from; `nil` when none could be formed.
    public var source: ToneSource?
    /// The reflector's ranging data from the phone's capture (RAS), with what happened to its segments.
    public var ras: RASProcedure?
    /// Why pairing the procedure with the reflector's data may be wrong (its counter repeats on
    /// its connection), when it may.
    public var pairingNote: String?
    /// The round-trip tones the estimate came from, when asked for (`ProcedureEstimation`'s
    /// `keepTones`, for `--plot`); nil otherwise.
    public var tones: ToneSet?
    /// The procedure's round-trip times, when it timed any step (mode 1 or 3).
    public var roundTrips: RoundTripTimes?
    /// The estimate's standard error, metres, when the estimator knows it (round-trip timing).
    public var standardError: Double?
    /// The vendor's own distance for the procedure, when its log gives one, to compare with ours.
    public var vendorDistance: VendorDistance?

    public init(procedureCounter: UInt16, distance: Double?, quality: Double?, method: String, reason: String?,
                connection: UInt16 = 0, configID: UInt8 = 0, source: ToneSource? = nil) {
        self.procedureCounter = procedureCounter
        self.distance = distance
        self.quality = quality
        self.method = method
        self.reason = reason
        self.connection = connection
        self.configID = configID
        self.source = source
    }

    /// `procedure 3: 2.998 m (quality 0.97, kay)`, or `procedure 3: no distance (reason)`;
    /// a vendor's distance follows in the parentheses (`; vendor 3.010 m, raw 2.950 m`).
    public var text: String {
        let vendor = vendorDistance.map { v in "; vendor \(fixed(v.distance, 3)) m" + (v.raw.map { ", raw \(fixed($0, 3)) m" } ?? "") }
        let note = (timingNote.map { "; " + $0 } ?? "") + (ras.map { "; " + $0.summary } ?? "") + (pairingNote.map { "; " + $0 } ?? "") + (vendor ?? "")
        if let distance {
            return "procedure \(procedureCounter): \(fixed(distance, 3)) m (quality \(fixed(quality ?? 0, 2)), \(method)\(note))"
        }
        return "procedure \(procedureCounter): no distance (\(reason ?? "no estimate")\(note))"
    }

    /// For a distance from round-trip timing: its standard error and the steps it used and left
    /// out, `±0.77 m from 69 of 72 round-trip steps, 3 failed the access-address check`.
    var timingNote: String? {
        guard distance != nil, method == "rtt" || method == "combined", let t = roundTrips, t.hasTimedSteps else { return nil }
        var s = standardError.map { "±\(fixed($0, 2)) m from " } ?? ""
        s += "\(t.samples.count) of \(t.samples.count + t.rejected.total) round-trip steps"
        if t.rejected.accessAddress > 0 { s += ", \(t.rejected.accessAddress) failed the access-address check" }
        if t.rejected.notAvailable > 0 { s += ", \(t.rejected.notAvailable) had no time" }
        if t.rejected.unpaired > 0 { s += ", \(t.rejected.unpaired) unpaired" }
        return s
    }

    /// `{"procedure_counter": 3, "distance_m": 2.998, "quality": 0.97, "method": "kay",
    /// "connection": 64, "config_id": 0, "source": "inline-pct"}`; without a distance
    /// `distance_m` and `quality` are null and a `reason` key follows (`source` is null when no
    /// tones could be formed); a vendor's distance adds `vendor_distance_m` (and
    /// `vendor_distance_raw_m`), with the vendor's six decimals.
    public func json(_ j: inout JSONWriter) {
        j.object { j in
            j.field("procedure_counter", procedureCounter)
            j.field("distance_m", distance, decimals: 3)
            j.field("quality", quality, decimals: 2)
            j.field("method", method)
            j.field("connection", connection)
            if let peer { j.field("peer_address", peer.description) }
            j.field("config_id", configID)
            j.field("source", source?.rawValue)
            if let ras {
                j.field("ras", object: { j in
                    j.field("mode", ras.mode.rawValue)
                    j.field("characteristics_inferred", ras.inferred)
                    j.field("segments", ras.segments)
                    j.field("lost_segments", ras.missing.count)
                    j.field("repeated_segments", ras.repeated)
                    j.field("overwritten", ras.overwritten)
                })
            }
            if let t = roundTrips, t.hasTimedSteps {
                j.field("round_trips", object: { j in
                    j.field("usable", t.samples.count)
                    j.field("access_address_failed", t.rejected.accessAddress)
                    j.field("not_available", t.rejected.notAvailable)
                    j.field("unpaired", t.rejected.unpaired)
                    j.field("standard_error_m", standardError, decimals: 3)
                })
            }
            if let pairingNote { j.field("pairing_note", pairingNote) }
            if let v = vendorDistance {
                j.field("vendor_distance_m", v.distance, decimals: 6)
                if let raw = v.raw { j.field("vendor_distance_raw_m", raw, decimals: 6) }
            }
            if let reason { j.field("reason", reason) }
        }
    }
}
