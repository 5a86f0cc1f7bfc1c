import DemoKit
