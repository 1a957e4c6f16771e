extension NavigationState {
    /// Reads the State shape of event format v1 from a parsed JSON value.
    ///
    /// - Throws: ``LineError`` of kind ``DefectKind/invalidMember`` naming the member at fault.
    package init(json: JSONValue) throws(LineError) {
        let members = try StateReading.object(json, "state")
        var state = NavigationState()
        switch members["active"] {
        case nil, .null?: break
        case .string(let id)?: state.active = id
        default: throw StateReading.wrong("state.active", "a string or null")
        }
        guard let scenes = members["scenes"] else { throw StateReading.wrong("state.scenes", "present") }
        for (id, value) in try StateReading.orderedObject(scenes, "state.scenes") {
            try StateReading.identifier(id, "a scene's id in state.scenes")
            state.scenes[id] = try SceneState(json: value, "state.scenes.\(id)")
        }
        // What the fold reaches: the active scene, when there is one, is open.
        if let active = state.active, state.scenes[active] == nil {
            throw StateReading.wrong("state.active", "null or the id of an open scene, not '\(active)'")
        }
        self = state
    }
}

extension SceneState {
    init(json: JSONValue, _ name: String) throws(LineError) {
        let members = try StateReading.object(json, name)
        var scene = SceneState()
        switch members["tab"] {
        case nil, .null?: break
        case .string(let tab)?:
            try StateReading.identifier(tab, "\(name).tab")
            scene.tab = tab
        default: throw StateReading.wrong("\(name).tab", "a string or null")
        }
        guard let stacks = members["stacks"] else { throw StateReading.wrong("\(name).stacks", "present") }
        for (id, value) in try StateReading.orderedObject(stacks, "\(name).stacks") {
            try StateReading.identifier(id, "a stack's id in \(name).stacks")
            scene.stacks[id] = try StateReading.routes(value, "\(name).stacks.\(id)")
        }
        if let sheets = members["sheets"] {
            guard case .array(let elements) = sheets else { throw StateReading.wrong("\(name).sheets", "an array") }
            for (i, element) in elements.enumerated() {
                let sheetName = "\(name).sheets[\(i)]"
                let sheet = try StateReading.object(element, sheetName)
                guard case .string(let id)? = sheet["id"] else { throw StateReading.wrong("\(sheetName).id", "a string") }
                try StateReading.identifier(id, "\(sheetName).id")
                var style = SheetStyle.sheet
                if let value = sheet["style"] {
                    guard case .string(let text) = value, let parsed = SheetStyle(rawValue: text) else {
                        throw StateReading.wrong("\(sheetName).style", "one of sheet, fullScreenCover, popover")
                    }
                    style = parsed
                }
                guard let root = sheet["root"] else { throw StateReading.wrong("\(sheetName).root", "present") }
                let stack = try sheet["stack"].map { (v: JSONValue) throws(LineError) in try StateReading.routes(v, "\(sheetName).stack") } ?? []
                scene.sheets.append(Sheet(id: id, style: style, root: try Route(json: root, "\(sheetName).root"), stack: stack))
            }
        }
        switch members["split"] {
        case nil, .null?: break
        case let value?:
            let split = try StateReading.object(value, "\(name).split")
            var state = SplitState()
            state.sidebar = try StateReading.optionalRoute(split["sidebar"], "\(name).split.sidebar")
            state.content = try StateReading.optionalRoute(split["content"], "\(name).split.content")
            if let visibility = split["visibility"] {
                guard case .string(let text) = visibility, let parsed = SplitVisibility(rawValue: text) else {
                    throw StateReading.wrong("\(name).split.visibility", "one of all, doubleColumn, detailOnly, automatic")
                }
                state.visibility = parsed
            }
            scene.split = state
        }
        if let phase = members["phase"] {
            guard case .string(let text) = phase, let parsed = ScenePhase(rawValue: text) else {
                throw StateReading.wrong("\(name).phase", "one of active, inactive, background")
            }
            scene.phase = parsed
        }
        self = scene
    }
}

extension Route {
    init(json: JSONValue, _ name: String) throws(LineError) {
        let members = try StateReading.object(json, name)
        guard case .string(let screen)? = members["screen"], !screen.isEmpty else {
            throw StateReading.wrong("\(name).screen", "a non-empty string")
        }
        var route = Route(screen: screen)
        switch members["id"] {
        case nil: break
        case .string(let id)?: route.id = id
        default: throw StateReading.wrong("\(name).id", "a string")
        }
        if let params = members["params"] {
            var map = [String: String]()
            for (key, value) in try StateReading.orderedObject(params, "\(name).params") {
                guard case .string(let text) = value else { throw StateReading.wrong("\(name).params.\(key)", "a string") }
                map[key] = text
            }
            route.params = map
        }
        self = route
    }
}

/// Helpers for reading the State shape from parsed JSON (snapshots are rare: clarity over speed).
enum StateReading {
    static func wrong(_ name: String, _ expectation: String) -> LineError {
        LineError(.invalidMember, at: 0, "'\(name)' must be \(expectation)")
    }

    /// An object's members by name.
    static func object(_ value: JSONValue, _ name: String) throws(LineError) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: try orderedObject(value, name))
    }

    /// An object's members in order; a key that comes twice is refused, as a line's member is.
    static func orderedObject(_ value: JSONValue, _ name: String) throws(LineError) -> [(String, JSONValue)] {
        guard case .object(let members) = value else { throw wrong(name, "an object") }
        var keys = Set<String>()
        for member in members where !keys.insert(member.key).inserted {
            throw LineError(.invalidMember, at: 0, "duplicate key '\(member.key)' in '\(name)'")
        }
        return members.map { ($0.key, $0.value) }
    }

    /// Checks an id the state holds, as events' ids are checked: it must not be empty.
    static func identifier(_ id: String, _ name: String) throws(LineError) {
        guard !id.isEmpty else { throw wrong(name, "a non-empty string") }
    }

    static func routes(_ value: JSONValue, _ name: String) throws(LineError) -> [Route] {
        guard case .array(let elements) = value else { throw wrong(name, "an array of routes") }
        var result = [Route]()
        for (i, element) in elements.enumerated() { result.append(try Route(json: element, "\(name)[\(i)]")) }
        return result
    }

    static func optionalRoute(_ value: JSONValue?, _ name: String) throws(LineError) -> Route? {
        switch value {
        case nil, .null?: return nil
        case let value?: return try Route(json: value, name)
        }
    }
}
