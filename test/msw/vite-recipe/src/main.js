// In development (and in `vite build --mode mock`) the API is the plantstore mock, in a service
// worker; it starts before the app renders, so no request goes past it.
if (import.meta.env.DEV || import.meta.env.MODE === 'mock') {
  const { setupWorker } = await import('msw/browser');
  const { createHandlers } = await import('./mocks/plantstore.js');
  const handlers = await createHandlers({ baseUrl: '/api', persist: true });
  await setupWorker(...handlers).start({ onUnhandledRequest: 'bypass' });
}

const api = (path, init = {}) =>
  fetch(`/api${path}`, { ...init, headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' } });

async function showPlants() {
  const plants = await (await api('/plants')).json();
  document
    .querySelector('#plants')
    .replaceChildren(
      ...plants.map((plant) => Object.assign(document.createElement('li'), { textContent: plant.name })),
    );
}

document.querySelector('#add').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const answer = await api('/plants', {
    method: 'POST',
    body: JSON.stringify({ id: Number(form.get('id')), name: form.get('name') }),
  });
  document.querySelector('#problem').textContent = answer.ok ? '' : (await answer.json()).message;
  await showPlants();
});

await showPlants();
