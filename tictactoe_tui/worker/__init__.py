"""The worker process the searches run in: the client the app holds (`Thinker`), the server loop
that runs in the worker, and the jobs it runs. No Textual: the worker imports the engine only."""
