extension Observation {
    /// Whether this is a provider report line.
    var isReconcile: Bool {
        if case .reconcile = self { return true }
        return false
    }

    /// The observation's `kind` as JSON Lines name it.
    var kindName: String {
        switch self {
        case .request: "request"
        case .appSwitch: "app_switch"
        case .callback: "callback"
        case .reconcile: "reconcile"
        case .fail: "fail"
        }
    }
}
