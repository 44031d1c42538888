/// The anchor-to-anchor time-of-flight estimates DL-TDoA uses.
public enum TwoWayRanging {
    /// Asymmetric DS-TWR (Decawave APS013 / DW1000 user manual §12.3; the formula the reference
    /// §1.6 quotes): ToF = (Ra·Rb − Da·Db)/(Ra + Rb + Da + Db), where Ra and Da are the initiator's
    /// round and reply times (its clock) and Rb and Db the responder's. Clock offsets cancel to
    /// first order, so ±20 ppm crystals cost a fraction of a tick. In `Double`: the products reach
    /// 10¹⁸ with an absolute error ~10², divided by the ~10⁸ tick sum, far below one tick.
    public static func doubleSidedTimeOfFlight(ra: Int64, rb: Int64, da: Int64, db: Int64) -> Double {
        let sum = Double(ra) + Double(rb) + Double(da) + Double(db)
        guard sum > 0 else { return 0 }
        return (Double(ra) * Double(rb) - Double(da) * Double(db)) / sum
    }

    /// SS-TWR with the responder's reply time converted to initiator ticks by the reported clock
    /// ratio (β = responder ticks per initiator tick): ToF = (Ra − Db/β)/2.
    public static func singleSidedTimeOfFlight(ra: Int64, db: Int64, responderTicksPerInitiatorTick beta: Double) -> Double {
        (Double(ra) - Double(db) / beta) / 2
    }

    /// A ToF in ticks as the 2-octet DTM field: rounded, saturated; 0 means invalid, so a true 0
    /// is sent as 1 (one tick, 4.7 mm, well inside the measurement noise).
    public static func field(_ ticks: Double) -> Int16 {
        guard ticks == ticks else { return 0 }
        let r = Int16(max(min(ticks.rounded(), 32_767), -32_768))
        return r == 0 ? 1 : r
    }
}
