import DLTDoA
import ToolJSON

/// What `tdoa --view` shows: the deployment's floor (a "map" event: the network's anchors with
/// their roles, the NLOS zones), each fix as its JSON Lines record (truth, fix, tracked
/// position, error, bound, rejected anchors), the summary line. The simulation is over before
/// the first line is printed, so the page is given the run as a replay.
extension RangingView {
    static func tdoa(_ o: TDoAOptions, deployment: DLTDOADeployment, network: Int, header: String, run: DLTDOASimulation.Run,
                     summary: TDoASummary) throws(ToolError) -> RangingView? {
        guard let view = try start(o.view, tonesInterval: 0) else { return nil }
        view.setup(command: "tdoa", lines: header.split(separator: "\n").prefix(1).map(String.init) + [o.deploymentPath.map { "deployment \($0)" } ?? "the default room"])
        view.server.publish("map", json { j in
            j.object { j in
                j.field("network", network)
                j.field("anchors", array: { j in
                    for a in deployment.anchors where Int(a.networkIdentifier) == network {
                        j.object { j in
                            j.field("address", TDoAReport.hex4(Int(a.address)))
                            j.field("position_m", [a.position.x, a.position.y, a.position.z], decimals: 3)
                            j.field("initiator", a.isInitiator)
                            j.field("cluster", Int(a.cluster))
                        }
                    }
                })
                j.field("zones", array: { j in
                    for z in deployment.zones {
                        j.object { j in
                            j.field("min_m", [z.minimum.x, z.minimum.y], decimals: 3)
                            j.field("max_m", [z.maximum.x, z.maximum.y], decimals: 3)
                        }
                    }
                })
            }
        })
        for r in run.records { view.record { TDoAReport.json(r, &$0) } }
        view.summary(text: summary.text, json: { summary.json(&$0) })
        return view
    }
}
