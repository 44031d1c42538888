/// The "rc" values of mcumgr responses (MGMT_ERR_*; Zephyr `mgmt/mcumgr/mgmt/mgmt_defines.h`,
/// Python `smp/error.py`). MCUboot's serial recovery uses 0, 1, 2, 3, 5, 8 and 10.
public enum MCUmgrResult {
    /// A short name for an rc value, for messages.
    public static func name(_ rc: Int) -> String {
        switch rc {
        case 0: return "EOK"
        case 1: return "EUNKNOWN"
        case 2: return "ENOMEM"
        case 3: return "EINVAL"
        case 4: return "ETIMEOUT"
        case 5: return "ENOENT"
        case 6: return "EBADSTATE"
        case 7: return "EMSGSIZE"
        case 8: return "ENOTSUP"
        case 9: return "ECORRUPT"
        case 10: return "EBUSY"
        case 11: return "EACCESSDENIED"
        default: return "rc \(rc)"
        }
    }
}
