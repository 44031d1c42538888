import BLEHost
import ReflectorFirmware
import ToolJSON

/// What `range --json` and `accessory --json` write beside their procedures when a link, a
/// procedure or the board's set-up is lost, one JSON Lines object each, so that a script counts
/// records rather than the status lines' wording (`scripts/soak`):
///
///     {"procedure_lost": {"counter": 17}}               in flight when the link or the board went
///     {"procedures_missed": {"first": 20, "count": 9}}  counters the board skipped
///     {"link_lost": {"reason": "connectionTimeout (0x8)"}}
///     {"board_restarted": {"fault": "..."}}             the host set the board up again
enum LinkRecord {
    case procedureLost(counter: UInt16)
    case proceduresMissed(first: UInt16, count: Int)
    case linkLost(HCIStatus)
    case boardRestarted(ControllerFault)

    func json(_ j: inout JSONWriter) {
        switch self {
        case .procedureLost(let counter): j.document("procedure_lost") { $0.field("counter", counter) }
        case let .proceduresMissed(first, count):
            j.document("procedures_missed") { j in
                j.field("first", first)
                j.field("count", count)
            }
        case .linkLost(let reason): j.document("link_lost") { $0.field("reason", reason.described) }
        case .boardRestarted(let fault): j.document("board_restarted") { $0.field("fault", "\(fault)") }
        }
    }
}
