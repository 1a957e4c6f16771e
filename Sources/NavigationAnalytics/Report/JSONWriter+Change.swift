import NavigationHistory

extension JSONWriter {
    /// A state change as an object: `{"change": KIND, "scene": ..., ...}`; a stack change of a
    /// sheet's stack with `"sheet"`, the sheet's place in the scene's sheets, when it is given.
    package mutating func change(_ change: StateDiff.Change, sheet: Int? = nil) {
        raw("{")
        switch change {
        case .sceneOpened(let scene):
            key("change", first: true); string("sceneOpened"); key("scene"); string(scene)
        case .sceneClosed(let scene):
            key("change", first: true); string("sceneClosed"); key("scene"); string(scene)
        case .activeScene(let from, let to):
            key("change", first: true); string("activeScene")
            key("from"); if let from { string(from) } else { raw("null") }
            key("to"); if let to { string(to) } else { raw("null") }
        case .tab(let scene, let from, let to):
            key("change", first: true); string("tab"); key("scene"); string(scene)
            key("from"); if let from { string(from) } else { raw("null") }
            key("to"); if let to { string(to) } else { raw("null") }
        case .stack(let scene, let stack, let removed, let added):
            key("change", first: true); string("stack"); key("scene"); string(scene); key("stack"); string(stack)
            if let sheet { key("sheet"); integer(sheet) }
            key("removed"); routes(removed)
            key("added"); routes(added)
        case .sheetPresented(let scene, let sheet):
            key("change", first: true); string("sheetPresented"); key("scene"); string(scene)
            key("sheet"); string(sheet.id); key("style"); string(sheet.style.rawValue); key("root"); route(sheet.root)
        case .sheetDismissed(let scene, let sheet):
            key("change", first: true); string("sheetDismissed"); key("scene"); string(scene); key("sheet"); string(sheet.id)
        case .split(let scene, _, let to):
            key("change", first: true); string("split"); key("scene"); string(scene)
            key("sidebar"); optionalRoute(to?.sidebar)
            key("content"); optionalRoute(to?.content)
            key("visibility"); if let to { string(to.visibility.rawValue) } else { raw("null") }
        case .phase(let scene, let from, let to):
            key("change", first: true); string("phase"); key("scene"); string(scene)
            key("from"); string(from.rawValue); key("to"); string(to.rawValue)
        }
        raw("}")
    }
}
