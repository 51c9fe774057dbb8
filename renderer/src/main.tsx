import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getClient } from './api/client';
import { App } from './app/App';
import { whenRiverFirstLoaded } from './app/first-render';
import { applyTheme, storedTheme } from './lib/theme';
import { connectStore } from './store/connect';
import { StoreProvider } from './store/context';
import { createAppStore } from './store/store';

// The theme before anything paints, so a dark choice never flashes light.
applyTheme(storedTheme());

const client = getClient();
const store = createAppStore(client);
connectStore(store, client);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
void whenRiverFirstLoaded(store).then(() =>
  createRoot(root).render(
    <StrictMode>
      <StoreProvider store={store}>
        <App />
      </StoreProvider>
    </StrictMode>,
  ),
);
