import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Console } from './Console';
import { SessionProvider } from './session';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <Console />
    </SessionProvider>
  </StrictMode>,
);
