"""The remote's blueprints: join, pages, api (JSON and live stream) and banker."""
