import NavigationHistory

extension NavigationEvent {
    /// The event in words: its type, scene, stack and what it names, as `navlog replay` and the
    /// report's replayer show it (`push main/home recipe(apple-pie)`). It begins with the event's
    /// type and a space, or the type alone: the report's transcript reads the type there.
    package var summary: String {
        switch action {
        case .sessionStart(let app, let launch, _): return "session.start \(launch.rawValue)" + (app.map { " app \($0)" } ?? "")
        case .sessionEnd(let reason): return "session.end" + (reason.map { " (\($0))" } ?? "")
        case .sceneOpen(let scene, _): return "scene.open \(scene)"
        case .sceneClose(let scene, _): return "scene.close \(scene)"
        case .sceneActivate(let scene): return "scene.activate \(scene)"
        case .scenePhase(let scene, let phase): return "scene.phase \(scene) \(phase.rawValue)"
        case .tabSelect(let scene, let tab): return "tab.select \(scene) \(tab)"
        case .push(let scene, let stack, let route): return "push \(scene)/\(stack) \(route.text)"
        case .pop(let scene, let stack, let count): return "pop \(scene)/\(stack)" + (count == 1 ? "" : " \(count)")
        case .popToRoot(let scene, let stack): return "popToRoot \(scene)/\(stack)"
        case .replace(let scene, let stack, let route): return "replace \(scene)/\(stack) \(route.text)"
        case .setPath(let scene, let stack, let path, let cause):
            return "setPath \(scene)/\(stack) [\(path.map(\.text).joined(separator: ", "))] (\(cause.rawValue))"
        case .deeplink(let scene, let url, let outcome, _, _, _): return "deeplink \(scene) \(url) (\(outcome.rawValue))"
        case .sheetPresent(let scene, let sheet, let route, _): return "sheet.present \(scene) \(sheet) \(route.text)"
        case .sheetDismiss(let scene, let sheet): return "sheet.dismiss \(scene)" + (sheet.map { " \($0)" } ?? "")
        case .splitSelect(let scene, let column, let route): return "split.select \(scene) \(column.rawValue) \(route?.text ?? "none")"
        case .splitVisibility(let scene, let visibility): return "split.visibility \(scene) \(visibility.rawValue)"
        case .snapshot: return "snapshot"
        case .restore(_, let from, let dropped): return "restore from seq \(from)" + (dropped.isEmpty ? "" : ", \(dropped.count) dropped")
        case .unknown(let type, _): return "\(type) (unknown type)"
        }
    }
}

extension NavigationEvent {
    /// What a replay's time axis marks the event as: `deeplink` for a deep link or a path set by
    /// one, `restore` for a restore or a path set by one; nil for any other event.
    package var replayMark: String? {
        switch action {
        case .deeplink: "deeplink"
        case .restore: "restore"
        case .setPath(_, _, _, .deeplink): "deeplink"
        case .setPath(_, _, _, .restore): "restore"
        default: nil
        }
    }
}
