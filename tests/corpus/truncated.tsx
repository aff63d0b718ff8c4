const App = () => <div><span>{x}</span
